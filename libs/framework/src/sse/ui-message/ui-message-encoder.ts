import type { UiFinishReason, UiMessageChunk } from './ui-message-chunk.js';
import { PASS_THROUGH_TYPES } from './ui-message-chunk.js';

/** What a `format: 'ui-message'` handler may yield, besides strings and protocol chunks. */
type LlmEvent =
  | { type: 'text-delta'; data: string }
  | { type: 'tool-call'; data: { id: string; name: string; args: unknown } }
  | { type: 'tool-result'; data: { id: string; name: string; result?: unknown; error?: string } }
  | {
      type: 'finish';
      data: { finishReason?: string; usage?: unknown; steps?: number };
    };

const FINISH_REASONS: ReadonlySet<string> = new Set([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);

/**
 * Turns what a `format: 'ui-message'` stream handler yields into AI SDK UI message chunks, one
 * value at a time, keeping the state the protocol needs: `start` before anything, one text part
 * per run of text (`text-start`, `text-delta`s, `text-end`), `start-step`/`finish-step` around
 * each model step (a step ends after its tool results), and `finish` last.
 *
 * A string (or Buffer) is a text delta. `llm.streamEvents()` events become text deltas, tool
 * parts (`tool-input-available`, then `tool-output-available` or `tool-output-error`) and the
 * closing `finish` (its usage and step count in `messageMetadata`). `{ type: 'data-<name>',
 * data }` objects, and any chunk of the protocol itself, are sent as they are. Anything else is
 * a `TypeError` (the stream then ends with an `error` chunk).
 */
export class UiMessageEncoder {
  private started = false;
  private stepOpen = false;
  /** Tool results were sent in the open step: the model's next output starts a new step. */
  private stepHasResults = false;
  private textId?: string;
  private texts = 0;
  private finishReason?: UiFinishReason;
  private metadata?: unknown;

  /** The chunks that stand for one value the handler yielded. */
  encode(value: unknown): UiMessageChunk[] {
    const out: UiMessageChunk[] = [];
    if (!this.started) {
      this.started = true;
      if (!isChunkOfType(value, 'start')) out.push({ type: 'start' });
    }
    if (typeof value === 'string' || Buffer.isBuffer(value)) {
      this.text(String(value), out);
    } else if (isLlmEvent(value)) {
      this.llmEvent(value, out);
    } else if (isProtocolChunk(value)) {
      out.push(value);
    } else {
      throw new TypeError(
        'A ui-message stream yields strings, llm.streamEvents() events, { type: "data-<name>", data } parts or UI message chunks',
      );
    }
    return out;
  }

  /** The chunks that close a stream whose handler is done. */
  end(): UiMessageChunk[] {
    const out: UiMessageChunk[] = [];
    if (!this.started) out.push({ type: 'start' });
    this.closeStep(out);
    out.push({
      type: 'finish',
      ...(this.finishReason ? { finishReason: this.finishReason } : {}),
      ...(this.metadata === undefined ? {} : { messageMetadata: this.metadata }),
    });
    return out;
  }

  private llmEvent(event: LlmEvent, out: UiMessageChunk[]): void {
    switch (event.type) {
      case 'text-delta':
        this.text(event.data, out);
        return;
      case 'tool-call':
        this.openStep(out);
        this.closeText(out);
        out.push({
          type: 'tool-input-available',
          toolCallId: event.data.id,
          toolName: event.data.name,
          input: event.data.args,
        });
        return;
      case 'tool-result':
        this.closeText(out);
        out.push(
          event.data.error === undefined
            ? {
                type: 'tool-output-available',
                toolCallId: event.data.id,
                output: event.data.result,
              }
            : { type: 'tool-output-error', toolCallId: event.data.id, errorText: event.data.error },
        );
        this.stepHasResults = true;
        return;
      case 'finish': {
        const { finishReason, ...metadata } = event.data;
        this.finishReason =
          finishReason && FINISH_REASONS.has(finishReason)
            ? (finishReason as UiFinishReason)
            : 'other';
        this.metadata = metadata;
      }
    }
  }

  private text(delta: string, out: UiMessageChunk[]): void {
    this.openStep(out);
    if (this.textId === undefined) {
      this.textId = `text-${(this.texts += 1)}`;
      out.push({ type: 'text-start', id: this.textId });
    }
    out.push({ type: 'text-delta', id: this.textId, delta });
  }

  /** Opens a step for model output; output after tool results is the model's next step. */
  private openStep(out: UiMessageChunk[]): void {
    if (this.stepHasResults) this.closeStep(out);
    if (this.stepOpen) return;
    this.stepOpen = true;
    out.push({ type: 'start-step' });
  }

  private closeStep(out: UiMessageChunk[]): void {
    this.closeText(out);
    if (this.stepOpen) out.push({ type: 'finish-step' });
    this.stepOpen = false;
    this.stepHasResults = false;
  }

  private closeText(out: UiMessageChunk[]): void {
    if (this.textId === undefined) return;
    out.push({ type: 'text-end', id: this.textId });
    this.textId = undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isChunkOfType(value: unknown, type: string): boolean {
  return isRecord(value) && value.type === type;
}

/** `llm.streamEvents()` events carry their payload in `data` (protocol chunks never do). */
function isLlmEvent(value: unknown): value is LlmEvent {
  if (
    !isRecord(value) ||
    !('data' in value) ||
    (!isRecord(value.data) && typeof value.data !== 'string')
  ) {
    return false;
  }
  switch (value.type) {
    case 'text-delta':
      return typeof value.data === 'string';
    case 'tool-call':
    case 'tool-result':
    case 'finish':
      return isRecord(value.data);
    default:
      return false;
  }
}

function isProtocolChunk(value: unknown): value is UiMessageChunk {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  if (value.type.startsWith('data-')) return 'data' in value;
  if (value.type === 'text-delta') return typeof value.delta === 'string';
  return PASS_THROUGH_TYPES.has(value.type);
}
