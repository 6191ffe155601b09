import type { FinishReason } from '../provider/language-model.interface.js';

/** Maps an OpenAI (or OpenAI-compatible) `finish_reason` to toolkit's vocabulary. */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    default:
      return 'other';
  }
}
