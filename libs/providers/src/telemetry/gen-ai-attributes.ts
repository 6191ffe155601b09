/**
 * Names of the span attributes toolkit's LLM spans carry: the OpenTelemetry GenAI semantic
 * conventions v1.41.0 (`gen_ai.*`, as `@opentelemetry/semantic-conventions` 1.45.0 exports them
 * from its `incubating` entry; the conventions now live in open-telemetry/semantic-conventions-genai),
 * plus toolkit's own `toolkit.llm.*`. Copied as strings: toolkit never loads OpenTelemetry packages
 * unless tracing is on.
 *
 * @example
 * span.setAttributes({ [GEN_AI.OPERATION_NAME]: 'chat', [GEN_AI.REQUEST_MODEL]: 'gpt-4o-mini' });
 */
export const GEN_AI = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  AGENT_NAME: 'gen_ai.agent.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_STREAM: 'gen_ai.request.stream',
  OUTPUT_TYPE: 'gen_ai.output.type',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_ID: 'gen_ai.response.id',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  /** Seconds from issuing a streamed request to its first chunk of content. */
  RESPONSE_TIME_TO_FIRST_CHUNK: 'gen_ai.response.time_to_first_chunk',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  EMBEDDINGS_DIMENSION_COUNT: 'gen_ai.embeddings.dimension.count',
  SYSTEM_INSTRUCTIONS: 'gen_ai.system_instructions',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
} as const;

/** General attributes the GenAI conventions reuse. */
export const SERVER_ADDRESS = 'server.address';
/** The port `server.address` is reached on (the scheme's default when the URL names none). */
export const SERVER_PORT = 'server.port';
/** Low-cardinality failure class: the error's `code`, else its class name. */
export const ERROR_TYPE = 'error.type';

/**
 * Toolkit's own attributes. `cost_usd` is the price-table cost of the span's calls (absent when
 * the model's price is unknown); `steps` the model calls of a tool loop; `stream.abandoned` marks a
 * streamed call whose consumer stopped reading before the end (not an error).
 */
export const TOOLKIT_LLM = {
  COST_USD: 'toolkit.llm.cost_usd',
  STEPS: 'toolkit.llm.steps',
  STREAM_ABANDONED: 'toolkit.llm.stream.abandoned',
} as const;

/** `gen_ai.operation.name` values toolkit uses. */
export type GenAiOperation = 'chat' | 'embeddings' | 'invoke_agent' | 'execute_tool';

/** `gen_ai.agent.name` of the agent span around a tool loop. */
export const TOOLKIT_AGENT_NAME = 'toolkit';
