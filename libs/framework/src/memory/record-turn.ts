import type { LlmStreamEvent, ToolStep } from '../../../providers/src/index.js';
import { assertValidMessage } from '../../../providers/src/internal.js';
import { ToolStepCollector } from './tool-step.collector.js';

/** Options of a turn write: `interrupted` marks an answer the client stopped. */
export interface TurnOptions {
  /** The answer stopped before its end (the client went away or the server shut down). */
  interrupted?: boolean;
  /** The tool calls the answer made, with their results (absent when it made none). */
  tools?: readonly ToolStep[];
}

/** Where {@link recordTurn} commits the exchange: a `ConversationMemory` (`memory.for(id)`). */
export interface TurnWriter {
  /** Stores the user message and the answer together, or neither. */
  addTurn(user: string, assistant: string, options?: TurnOptions): Promise<unknown>;
}

/**
 * Passes a streamed answer through, chunk by chunk, and commits the exchange to memory exactly
 * once, when it is over:
 * - the stream ends normally → the user message and the whole answer;
 * - the client stops it (the request's signal aborts: it went away, or pressed Stop) after some
 *   output → the user message and the partial answer, marked `interrupted`, as chat UIs keep a
 *   stopped answer;
 * - the upstream model fails, before or during the answer, or the client goes before any output →
 *   nothing, so a retry starts from the same history and never duplicates the question.
 *
 * A message memory would refuse (not a string, or holding NUL) throws `InvalidMessageError`
 * (422) at once, before any output; NUL characters in the answer are stored as U+FFFD.
 *
 * The stream may be text chunks (`llm.chat(..., { stream: true })`) or the typed events of
 * `llm.streamEvents()`: every event passes through, the answer stored is the text of its
 * `text-delta` events, and its `tool-call` and `tool-result` events (paired by id, numbered by
 * model round in `step`) are stored as the answer's `tools`, so a reloaded history shows them
 * and the next `chat({ history })` replays them to the model. A call without a result is stored
 * with `error: 'interrupted'` when the client stopped the answer, `error: 'not run'` when the
 * loop ended without running it (`maxSteps`). A stopped answer is kept when it has text or a
 * tool call that came back (its side effects happened); tool values are stored as their JSON
 * form, cut past the memory's bound (see `AddTurnOptions.tools`).
 *
 * @example
 * @Route('/chat', { methods: ['POST'] })
 * @Stream()
 * async chat(@Session() session: string, @Arg('message') message: string, @RequestSignal() signal: AbortSignal) {
 *   const memory = this.memory.for(session);
 *   const history = await memory.toDictList();
 *   const stream = await this.llm.chat(message, { history, stream: true, signal });
 *   return recordTurn(memory, message, stream, signal);
 * }
 */
export function recordTurn<T extends string | LlmStreamEvent>(
  memory: TurnWriter,
  message: string,
  stream: AsyncIterable<T>,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  // A message memory would refuse fails now, as a 422 before any output, not as an error event
  // once the answer has been streamed.
  assertValidMessage('user', message);
  return passThrough(memory, message, stream, signal);
}

/** The answer text a chunk carries: itself, or a `text-delta` event's data. */
function textOf(chunk: string | LlmStreamEvent): string {
  if (typeof chunk === 'string') return chunk;
  return chunk.type === 'text-delta' ? chunk.data : '';
}

async function* passThrough<T extends string | LlmStreamEvent>(
  memory: TurnWriter,
  message: string,
  stream: AsyncIterable<T>,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  let answer = '';
  const tools = new ToolStepCollector();
  // Until the stream ends or fails, leaving means the consumer stopped reading (client gone).
  let outcome: 'complete' | 'failed' | 'stopped' = 'stopped';
  try {
    for await (const chunk of stream) {
      answer += textOf(chunk);
      if (typeof chunk !== 'string') tools.add(chunk);
      yield chunk;
    }
    outcome = 'complete';
  } catch (error) {
    // A failure caused by the client's abort is a stop; any other is the model's failure.
    if (signal?.aborted !== true) outcome = 'failed';
    throw error;
  } finally {
    // Memory refuses NUL (PostgreSQL text cannot hold it); a model that emitted one gets it
    // stored as U+FFFD rather than losing the whole turn after the client saw it.
    const stored = answer.replaceAll('\u0000', '\uFFFD');
    if (outcome === 'complete') {
      const steps = tools.finish('not run');
      await (steps.length > 0
        ? memory.addTurn(message, stored, { tools: steps })
        : memory.addTurn(message, stored));
    } else if (outcome === 'stopped' && (answer !== '' || tools.anyCompleted)) {
      const steps = tools.finish('interrupted');
      await memory.addTurn(message, stored, {
        interrupted: true,
        ...(steps.length > 0 ? { tools: steps } : {}),
      });
    }
  }
}
