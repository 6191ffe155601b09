import type { ModelRequest, ModelToolCall } from '../provider/language-model.interface.js';

const TOOL_COMMAND = /^\/tool\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/;

/** What `echo` does with tools: ask for a call, report results, or nothing special. */
export type EchoToolTurn =
  { kind: 'call'; call: ModelToolCall } | { kind: 'results'; text: string } | undefined;

/**
 * The offline `echo` model's deterministic tool rule, so a tool loop runs with no key: when the
 * call offers tools and the last user message is `/tool NAME {json args}`, echo asks for that
 * call (arguments as written, `{}` when none); when the conversation ends with tool results,
 * echo answers `Tool NAME returned RESULT.` per result.
 *
 * @example
 * // user: /tool calculator {"expression": "2+2"}
 * // echo: calls calculator({ expression: '2+2' }), then answers 'Tool calculator returned 4.'
 */
export function echoToolTurn(request: ModelRequest): EchoToolTurn {
  if (!request.tools?.length) return undefined;
  const last = request.messages.at(-1);
  if (last?.role === 'tool') {
    const results: string[] = [];
    for (let i = request.messages.length - 1; i >= 0; i--) {
      const m = request.messages[i];
      if (m.role !== 'tool') break;
      results.unshift(`Tool ${m.name} ${m.isError ? 'failed:' : 'returned'} ${m.content}.`);
    }
    return { kind: 'results', text: results.join(' ') };
  }
  if (last?.role !== 'user') return undefined;
  const match = TOOL_COMMAND.exec(last.content.trim());
  if (!match) return undefined;
  const turn = request.messages.filter((m) => m.role === 'user').length;
  return {
    kind: 'call',
    call: { id: `echo_call_${turn}`, name: match[1], arguments: match[2].trim() || '{}' },
  };
}
