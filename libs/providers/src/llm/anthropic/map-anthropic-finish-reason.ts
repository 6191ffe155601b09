import type { FinishReason } from '../provider/language-model.interface.js';

/** Maps an Anthropic `stop_reason` to toolkit's vocabulary. */
export function mapAnthropicFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    case 'tool_use':
      return 'tool-calls';
    default:
      return 'other';
  }
}
