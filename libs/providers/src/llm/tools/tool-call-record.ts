import type { FinishReason, TokenUsage } from '../provider/language-model.interface.js';

/** One tool call of a step: what the model asked for and what came of it. */
export interface ToolCallRecord {
  /** The model's id for the call. */
  id: string;
  /** Tool name the model asked for. */
  name: string;
  /** Parsed arguments (the raw text when it was not valid JSON). */
  args: unknown;
  /** What the tool returned, when it ran and succeeded. */
  result?: unknown;
  /** Why the call failed (bad JSON, invalid arguments, unknown tool, the tool threw), sent back to the model. */
  error?: string;
}

/** One model call of a tool loop, with the tool calls it asked for. */
export interface GenerateStep {
  /** Text the model wrote in this step. */
  text: string;
  /** Tool calls asked for in this step (empty in the final step). */
  toolCalls: ToolCallRecord[];
  /** Why this model call stopped. */
  finishReason: FinishReason;
  /** Tokens of this model call, when reported. */
  usage?: TokenUsage;
}
