import type {
  FinishReason,
  ModelMessage,
  ModelToolCall,
} from '../llm/provider/language-model.interface.js';

/** A message part in the GenAI conventions' shape (text, tool call or tool result). */
type MessagePart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown };

/**
 * Toolkit's finish reason as the conventions spell it (`gen_ai.response.finish_reasons` and the
 * `finish_reason` of an output message): `stop`, `length`, `content_filter`, `tool_call`;
 * `max-steps` and `other` keep toolkit's own word.
 *
 * @example
 * genAiFinishReason('tool-calls'); // 'tool_call'
 */
export function genAiFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_call';
    default:
      return reason;
  }
}

/** JSON text parsed when it parses (tool arguments are objects in the conventions), else as is. */
function structured(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

function toolCallPart(call: ModelToolCall): MessagePart {
  return { type: 'tool_call', id: call.id, name: call.name, arguments: structured(call.arguments) };
}

/**
 * `gen_ai.input.messages`: the conversation sent, as a JSON string of `{ role, parts }` messages
 * (system prompts go to `gen_ai.system_instructions`). Only built when content is recorded.
 *
 * @example
 * inputMessagesJson([{ role: 'user', content: 'Hi' }]);
 * // '[{"role":"user","parts":[{"type":"text","content":"Hi"}]}]'
 */
export function inputMessagesJson(messages: readonly ModelMessage[]): string {
  return JSON.stringify(
    messages.map((m) => {
      if (m.role === 'tool') {
        const part: MessagePart = {
          type: 'tool_call_response',
          id: m.toolCallId,
          response: m.content,
        };
        return { role: 'tool', parts: [part] };
      }
      const parts: MessagePart[] = m.content === '' ? [] : [{ type: 'text', content: m.content }];
      if (m.role === 'assistant') parts.push(...(m.toolCalls ?? []).map(toolCallPart));
      return { role: m.role, parts };
    }),
  );
}

/** `gen_ai.system_instructions`: the system prompt as a JSON string of text parts. */
export function systemInstructionsJson(system: string): string {
  return JSON.stringify([{ type: 'text', content: system }]);
}

/**
 * `gen_ai.output.messages`: the one answer (text, then the tool calls it asked for) with its
 * finish reason, as a JSON string.
 *
 * @example
 * outputMessagesJson('Hello', [], 'stop');
 */
export function outputMessagesJson(
  text: string,
  toolCalls: readonly ModelToolCall[],
  finishReason: FinishReason,
): string {
  const parts: MessagePart[] = text === '' ? [] : [{ type: 'text', content: text }];
  parts.push(...toolCalls.map(toolCallPart));
  return JSON.stringify([
    { role: 'assistant', parts, finish_reason: genAiFinishReason(finishReason) },
  ]);
}
