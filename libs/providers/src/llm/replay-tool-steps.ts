import type { ToolStep } from '../memory/memory-message.js';
import type { ModelMessage, ModelToolCall } from './provider/language-model.interface.js';

/** A tool's value as the text sent back to a model, as the tool loop sends it. */
function resultText(step: ToolStep): string {
  if (step.error !== undefined) return JSON.stringify({ error: step.error });
  if (step.result === undefined) return JSON.stringify({ error: 'no result recorded' });
  return typeof step.result === 'string' ? step.result : (JSON.stringify(step.result) ?? 'null');
}

/**
 * An assistant history message with tool steps as the provider-neutral messages the tool loop
 * produced: per round (`step`, 1 when absent, in order of first appearance), one assistant
 * message asking for that round's calls and one `tool` message per call (an `error`, or a call
 * without result, as an error result); then the answer's text, unless it is empty. Each
 * provider then sends them in its own tool format (OpenAI `tool_calls` and `tool` messages,
 * Anthropic `tool_use` and `tool_result` blocks).
 *
 * @example
 * replayToolSteps([{ id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5 }], '5.');
 * // [{ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'calculator', arguments: '{"expression":"2+3"}' }] },
 * //  { role: 'tool', toolCallId: 'c1', name: 'calculator', content: '5' },
 * //  { role: 'assistant', content: '5.' }]
 */
export function replayToolSteps(steps: readonly ToolStep[], content: string): ModelMessage[] {
  const rounds = new Map<number, ToolStep[]>();
  for (const step of steps) {
    const round = step.step ?? 1;
    rounds.set(round, [...(rounds.get(round) ?? []), step]);
  }
  const messages: ModelMessage[] = [];
  for (const calls of rounds.values()) {
    const toolCalls = calls.map((c): ModelToolCall => ({
      id: c.id,
      name: c.name,
      arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
    }));
    messages.push({ role: 'assistant', content: '', toolCalls });
    for (const c of calls) {
      const failed = c.error !== undefined || c.result === undefined;
      messages.push({
        role: 'tool',
        toolCallId: c.id,
        name: c.name,
        content: resultText(c),
        ...(failed ? { isError: true } : {}),
      });
    }
  }
  if (content !== '' || messages.length === 0) messages.push({ role: 'assistant', content });
  return messages;
}
