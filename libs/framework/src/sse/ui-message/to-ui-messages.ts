import type { MemoryMessage, ToolStep } from '../../../../providers/src/index.js';

/** A text part of a {@link UiMessage} (the AI SDK's `TextUIPart`). */
export interface UiTextPart {
  type: 'text';
  text: string;
  state: 'done';
}

/** Marks the start of one model round (the AI SDK's `StepStartUIPart`). */
export interface UiStepStartPart {
  type: 'step-start';
}

/**
 * A tool call and its outcome (the AI SDK's `ToolUIPart`, type `tool-<name>`): `output-available`
 * with `output`, `output-error` with `errorText` (a failed call, or one that never ran), or
 * `input-available` when no outcome was recorded.
 */
export type UiToolPart = { type: `tool-${string}`; toolCallId: string; input: unknown } & (
  | { state: 'output-available'; output: unknown }
  | { state: 'output-error'; errorText: string }
  | { state: 'input-available' }
);

/** One part of a {@link UiMessage}. */
export type UiMessagePart = UiTextPart | UiStepStartPart | UiToolPart;

/**
 * A stored message as the AI SDK's `UIMessage` (what `useChat` takes as `messages`): an id, the
 * role, its parts, and the stored `metadata` when it has some (e.g. `{ interrupted: true }`).
 */
export interface UiMessage {
  /** `<timestamp>:<role>`, with `:<n>` added from the second message sharing both. */
  id: string;
  role: 'user' | 'assistant' | 'system';
  metadata?: Record<string, unknown>;
  parts: UiMessagePart[];
}

function toolPart(step: ToolStep): UiToolPart {
  const base = { type: `tool-${step.name}` as const, toolCallId: step.id, input: step.args };
  if (step.error !== undefined) return { ...base, state: 'output-error', errorText: step.error };
  if (step.result !== undefined) return { ...base, state: 'output-available', output: step.result };
  return { ...base, state: 'input-available' };
}

function partsOf(message: MemoryMessage): UiMessagePart[] {
  const parts: UiMessagePart[] = [];
  let round: number | undefined;
  for (const step of message.tools ?? []) {
    if (step.step !== round || parts.length === 0) parts.push({ type: 'step-start' });
    round = step.step;
    parts.push(toolPart(step));
  }
  if (parts.length === 0) return [{ type: 'text', text: message.content, state: 'done' }];
  if (message.content !== '') {
    parts.push({ type: 'step-start' }, { type: 'text', text: message.content, state: 'done' });
  }
  return parts;
}

/**
 * Stored messages (`memory.toDictList()`) as AI SDK UI messages, so a page using `useChat` shows
 * a reloaded conversation as it showed it live: the text as a `text` part and, on an assistant
 * answer that used tools, one `tool-<name>` part per call (`output-available` with its output,
 * or `output-error` with its error), each model round opened by a `step-start` part, before the
 * answer's text. Ids are derived from the timestamp and role, so they stay the same across
 * reloads.
 *
 * @example
 * @Route('/history', { methods: ['GET'] })
 * async history(@Session() session: string) {
 *   return toUiMessages(await this.memory.for(session).toDictList());
 * }
 * // [{ id: '2025-01-01T12:00:00.000Z:user', role: 'user',
 * //    parts: [{ type: 'text', text: '2+3?', state: 'done' }] },
 * //  { id: '2025-01-01T12:00:00.000Z:assistant', role: 'assistant',
 * //    parts: [{ type: 'step-start' },
 * //            { type: 'tool-calculator', toolCallId: 'c1', state: 'output-available', input: { expression: '2+3' }, output: 5 },
 * //            { type: 'step-start' }, { type: 'text', text: '5.', state: 'done' }] }]
 */
export function toUiMessages(messages: readonly MemoryMessage[]): UiMessage[] {
  const seen = new Map<string, number>();
  return messages.map((message) => {
    const base = `${message.timestamp}:${message.role}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return {
      id: n === 1 ? base : `${base}:${n}`,
      role: message.role,
      parts: partsOf(message),
      ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
    };
  });
}
