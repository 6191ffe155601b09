import type { ModelTarget } from '../llm/model-target.js';
import { GEN_AI } from './gen-ai-attributes.js';
import { targetAttributes } from './gen-ai-target.js';
import { activeTracer, startSpan, withSpan } from './tracing.js';

/** One embeddings call, told where to report the prompt tokens of each request it makes. */
export type EmbedCall = (onUsage?: (inputTokens: number) => void) => Promise<number[][]>;

/**
 * Runs one `llm.embed()` call (all its batches) inside an `embeddings {model}` CLIENT span
 * (OpenTelemetry GenAI semantic conventions v1.41.0): `gen_ai.usage.input_tokens` summed over
 * the requests when the provider reports it, `gen_ai.embeddings.dimension.count` of the vectors.
 * While tracing is off it just calls `embed`.
 *
 * @example
 * const vectors = await tracedEmbeddings(target, (onUsage) => model.embed(texts, undefined, onUsage));
 */
export async function tracedEmbeddings(target: ModelTarget, embed: EmbedCall): Promise<number[][]> {
  if (activeTracer() === undefined) return embed();
  const model = target.embeddingModel ?? target.resolution.model;
  const span = startSpan(`embeddings ${model}`, {
    kind: 'client',
    attributes: {
      ...targetAttributes(target),
      [GEN_AI.OPERATION_NAME]: 'embeddings',
      [GEN_AI.REQUEST_MODEL]: model,
    },
  });
  let inputTokens: number | undefined;
  const onUsage = (tokens: number): void => {
    inputTokens = (inputTokens ?? 0) + tokens;
  };
  try {
    const vectors = await withSpan(span, () => embed(onUsage));
    span.setAttributes({
      [GEN_AI.USAGE_INPUT_TOKENS]: inputTokens,
      [GEN_AI.EMBEDDINGS_DIMENSION_COUNT]: vectors[0]?.length,
    });
    return vectors;
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
