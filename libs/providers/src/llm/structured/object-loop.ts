import type {
  GenerateResult,
  ModelMessage,
  TokenUsage,
} from '../provider/language-model.interface.js';
import type { CompiledSchema } from '../tools/schema-validator.js';
import { checkReply, retryInstruction } from './object-reply.js';
import { StructuredOutputError } from './structured-output.error.js';

/** A finished structured-output call. */
export interface ObjectLoopResult {
  value: unknown;
  attempts: number;
  usages: (TokenUsage | undefined)[];
}

/**
 * Asks for a JSON reply and validates it; an invalid reply is sent back with the validation
 * problem and asked again, up to `maxRetries` more times, then {@link StructuredOutputError}.
 */
export async function runObjectLoop(
  messages: readonly ModelMessage[],
  schema: CompiledSchema,
  maxRetries: number,
  generate: (messages: ModelMessage[]) => Promise<GenerateResult>,
): Promise<ObjectLoopResult> {
  const turns = [...messages];
  const usages: (TokenUsage | undefined)[] = [];
  for (let attempt = 1; ; attempt++) {
    const result = await generate(turns);
    usages.push(result.usage);
    const checked = await checkReply(result.text, schema);
    if (checked.ok) return { value: checked.value, attempts: attempt, usages };
    if (attempt > maxRetries) throw new StructuredOutputError(checked.problem, attempt);
    turns.push(
      { role: 'assistant', content: result.text },
      { role: 'user', content: retryInstruction(checked.problem) },
    );
  }
}
