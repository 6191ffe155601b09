import type { FinishReason, TokenUsage } from '../provider/language-model.interface.js';

/**
 * What `llm.streamEvents()` yields. Each event is a Nest `MessageEvent` (`type` and `data`), so
 * a `@Stream()` route relays it as an SSE event of its own `event:` type: `text-delta` (a chunk
 * of the answer), `tool-call` (the model asked for a tool), `tool-result` (the tool answered or
 * failed) and `finish` (last, with the finish reason, summed usage and cost, and step count).
 */
export type LlmStreamEvent =
  | { type: 'text-delta'; data: string }
  | { type: 'tool-call'; data: { id: string; name: string; args: unknown } }
  | {
      type: 'tool-result';
      data: { id: string; name: string; result?: unknown; error?: string };
    }
  | {
      type: 'finish';
      data: {
        finishReason: FinishReason;
        usage?: TokenUsage & { costUsd?: number };
        steps: number;
      };
    };
