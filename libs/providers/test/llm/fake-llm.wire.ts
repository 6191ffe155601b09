/**
 * Wire formats the fake provider server speaks: OpenAI chat completions and Anthropic messages,
 * plain and SSE, shaped like the real APIs' documented responses.
 */

/** A tool call to render; `arguments` is JSON text (possibly deliberately broken). */
export interface ToolCallShape {
  id: string;
  name: string;
  arguments: string;
}

/** The answer to render, vendor-neutral. */
export interface ReplyShape {
  /** Tool calls after the text (their vendor finish reason becomes the default). */
  toolCalls?: ToolCallShape[];
  model: string;
  chunks: string[];
  inputTokens: number;
  outputTokens: number;
  /** Vendor finish reason; each wire has its own default. */
  finishReason?: string;
  /** OpenAI: the request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** How one vendor frames answers and errors. */
export interface Wire {
  complete(shape: ReplyShape): unknown;
  error(status: number, message: string): unknown;
  streamStart(shape: ReplyShape): string[];
  streamDelta(shape: ReplyShape, text: string): string;
  streamEnd(shape: ReplyShape): string[];
}

const CREATED = 1_700_000_000;

/** Splits JSON text into three fragments, as vendors stream arguments in pieces. */
function fragments(text: string): string[] {
  if (text.length < 3) return [text];
  const a = Math.floor(text.length / 3);
  const b = Math.floor((2 * text.length) / 3);
  return [text.slice(0, a), text.slice(a, b), text.slice(b)];
}

function parsedInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function sse(data: unknown, event?: string): string {
  const head = event ? `event: ${event}\n` : '';
  return `${head}data: ${JSON.stringify(data)}\n\n`;
}

function openaiChunk(
  shape: ReplyShape,
  delta: Record<string, unknown>,
  finish: string | null,
): string {
  return sse({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: shape.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(shape.includeUsage ? { usage: null } : {}),
  });
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
};

/** OpenAI chat completions (and every OpenAI-compatible host). */
export const openaiWire: Wire = {
  complete: (shape) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: CREATED,
    model: shape.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content:
            shape.toolCalls?.length && shape.chunks.length === 0 ? null : shape.chunks.join(''),
          refusal: null,
          ...(shape.toolCalls?.length
            ? {
                tool_calls: shape.toolCalls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: shape.finishReason ?? (shape.toolCalls?.length ? 'tool_calls' : 'stop'),
      },
    ],
    usage: {
      prompt_tokens: shape.inputTokens,
      completion_tokens: shape.outputTokens,
      total_tokens: shape.inputTokens + shape.outputTokens,
    },
  }),
  error: (status, message) => ({
    error: {
      message,
      type:
        status >= 500 ? 'server_error' : (OPENAI_ERROR_TYPES[status] ?? 'invalid_request_error'),
      param: null,
      code: OPENAI_ERROR_TYPES[status] ?? null,
    },
  }),
  streamStart: (shape) => [openaiChunk(shape, { role: 'assistant', content: '' }, null)],
  streamDelta: (shape, text) => openaiChunk(shape, { content: text }, null),
  streamEnd: (shape) => {
    const events: string[] = [];
    // Indexed deltas: id, type and name first, then the arguments in fragments.
    for (const [index, call] of (shape.toolCalls ?? []).entries()) {
      events.push(
        openaiChunk(
          shape,
          {
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: '' },
              },
            ],
          },
          null,
        ),
      );
      for (const part of fragments(call.arguments)) {
        events.push(
          openaiChunk(shape, { tool_calls: [{ index, function: { arguments: part } }] }, null),
        );
      }
    }
    const finish = shape.finishReason ?? (shape.toolCalls?.length ? 'tool_calls' : 'stop');
    events.push(openaiChunk(shape, {}, finish));
    if (shape.includeUsage) {
      events.push(
        sse({
          id: 'chatcmpl-fake',
          object: 'chat.completion.chunk',
          created: CREATED,
          model: shape.model,
          choices: [],
          usage: {
            prompt_tokens: shape.inputTokens,
            completion_tokens: shape.outputTokens,
            total_tokens: shape.inputTokens + shape.outputTokens,
          },
        }),
      );
    }
    events.push('data: [DONE]\n\n');
    return events;
  },
};

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Anthropic messages. */
export const anthropicWire: Wire = {
  complete: (shape) => ({
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: shape.model,
    content: [
      ...(shape.chunks.length || !shape.toolCalls?.length
        ? [{ type: 'text', text: shape.chunks.join('') }]
        : []),
      ...(shape.toolCalls ?? []).map((c) => ({
        type: 'tool_use',
        id: c.id,
        name: c.name,
        input: parsedInput(c.arguments),
      })),
    ],
    stop_reason: shape.finishReason ?? (shape.toolCalls?.length ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: shape.inputTokens, output_tokens: shape.outputTokens },
  }),
  error: (status, message) => ({
    type: 'error',
    error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message },
  }),
  streamStart: (shape) => [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_fake',
          type: 'message',
          role: 'assistant',
          model: shape.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: shape.inputTokens, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sse(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    ),
    sse({ type: 'ping' }, 'ping'),
  ],
  streamDelta: (_shape, text) =>
    sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      'content_block_delta',
    ),
  streamEnd: (shape) => [
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    ...(shape.toolCalls ?? []).flatMap((call, i) => [
      sse(
        {
          type: 'content_block_start',
          index: i + 1,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        },
        'content_block_start',
      ),
      ...fragments(call.arguments).map((partial_json) =>
        sse(
          {
            type: 'content_block_delta',
            index: i + 1,
            delta: { type: 'input_json_delta', partial_json },
          },
          'content_block_delta',
        ),
      ),
      sse({ type: 'content_block_stop', index: i + 1 }, 'content_block_stop'),
    ]),
    sse(
      {
        type: 'message_delta',
        delta: {
          stop_reason: shape.finishReason ?? (shape.toolCalls?.length ? 'tool_use' : 'end_turn'),
          stop_sequence: null,
        },
        usage: { output_tokens: shape.outputTokens },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  ],
};
