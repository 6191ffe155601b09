import { InvalidMessageError } from './invalid-message.error.js';
import { fitToolSteps } from './fit-tool-steps.js';
import type { MemoryMessage, MemoryRole, ToolStep } from './memory-message.js';
import {
  assertPositiveInteger,
  assertValidMessage,
  assertValidUserId,
  copyMessage,
} from './memory-message.validation.js';
import type { MemoryStore } from './memory-store.interface.js';
import { MEMORY_ATTRIBUTE, MEMORY_SPAN, memorySpanOptions } from './memory-spans.js';
import { traced } from '../telemetry/tracing.js';
import type { TraceSpanOptions } from '../telemetry/tracer.interface.js';
import { fitTokenBudget } from './token-budget.js';
import { assertValidToolSteps, toolStepsProblem } from './tool-steps.validation.js';

/** Options of {@link ConversationMemory.toDictList}. */
export interface ToDictListOptions {
  /**
   * Token budget: keep only the newest whole turns whose estimated tokens fit, plus every system
   * message. Tokens are estimated without a tokenizer (about four ASCII characters per token,
   * one per other character, plus 4 per message). A positive integer. @default undefined (no budget)
   */
  maxTokens?: number;
}

/** Options of {@link ConversationMemory.addTurn}. */
export interface AddTurnOptions {
  /**
   * The client stopped the answer mid-stream: the partial answer is stored with
   * `metadata: { interrupted: true }`. @default false
   */
  interrupted?: boolean;
  /**
   * The tool calls the answer made, with their results, stored as the answer's
   * {@link MemoryMessage.tools} (see {@link ToolStep}). Past 64 KB as JSON the largest arguments,
   * results and errors are cut to a 256-character preview and the marker
   * `… [truncated: N characters]` (see `fitToolSteps`); a list that is not valid, or has more than
   * 64 steps, is refused with `InvalidMessageError` (422). An empty list stores none. @default none
   */
  tools?: readonly ToolStep[];
}

/**
 * One user's conversation history, as `app.memory(userId)` and `MemoryService.for(userId)` give it.
 * Roles are `user`, `assistant` and `system`; anything else, or content that is not a string,
 * rejects with `InvalidMessageError` (422). A backend that is down rejects with
 * `MemoryUnavailableError` (503).
 *
 * @example
 * const memory = app.memory('alice');
 * await memory.add('user', 'What is the capital of France?');
 * await memory.add('assistant', 'Paris.');
 * const history = await memory.toDictList(); // [{ role, content, timestamp }, ...] oldest first
 */
export interface ConversationMemory {
  /** Whose history this is. */
  readonly userId: string;
  /** Appends a message stamped with the current time; resolves to the stored message. */
  add(role: MemoryRole, content: string): Promise<MemoryMessage>;
  /**
   * Stores a whole turn (the user's message and the assistant's answer) in one atomic write: both
   * or neither, so a failed model call never leaves an orphaned user message. Call it once the
   * answer is complete (or stopped by the client, with `{ interrupted: true }`); resolves to the
   * two stored messages.
   *
   * @example
   * const answer = await llm.generate([...(await memory.toDictList()), { role: 'user', content: message }]);
   * await memory.addTurn(message, answer);
   * // after a tool-using answer:
   * await memory.addTurn('2+3?', '5.', { tools: [{ id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 }] });
   */
  addTurn(user: string, assistant: string, options?: AddTurnOptions): Promise<MemoryMessage[]>;
  /** The history, oldest first, at most `memory.max_history` messages. */
  toDictList(options?: ToDictListOptions): Promise<MemoryMessage[]>;
  /** Forgets the whole history. */
  clear(): Promise<void>;
}

/** Options of {@link StoreConversationMemory}. */
export interface StoreConversationMemoryOptions {
  /** Clock used to stamp messages (tests pass a fixed one). @default () => new Date() */
  now?: () => Date;
}

/**
 * The {@link ConversationMemory} of one user over any {@link MemoryStore}. Each operation is a
 * `toolkit.memory.load` / `add` / `clear` span while tracing is on (see `MEMORY_SPAN`), the
 * parent of the backend client's own spans.
 *
 * @example
 * const memory = new StoreConversationMemory(createMemoryStore(config.memory), 'alice');
 * await memory.add('user', 'Hi');
 */
export class StoreConversationMemory implements ConversationMemory {
  private readonly now: () => Date;
  private readonly spanOptions: TraceSpanOptions;

  constructor(
    private readonly store: MemoryStore,
    readonly userId: string,
    options: StoreConversationMemoryOptions = {},
  ) {
    assertValidUserId(userId);
    this.now = options.now ?? (() => new Date());
    this.spanOptions = memorySpanOptions(store.backend);
  }

  add(role: MemoryRole, content: string): Promise<MemoryMessage> {
    return traced(MEMORY_SPAN.add, this.spanOptions, async (span) => {
      if (span.recording) span.setAttributes({ [MEMORY_ATTRIBUTE.messages]: 1 });
      assertValidMessage(role, content);
      const message: MemoryMessage = { role, content, timestamp: this.now().toISOString() };
      await this.store.append(this.userId, message);
      return { ...message };
    });
  }

  addTurn(user: string, assistant: string, options: AddTurnOptions = {}): Promise<MemoryMessage[]> {
    return traced(MEMORY_SPAN.add, this.spanOptions, async (span) => {
      const turn = buildTurn(user, assistant, options, this.now().toISOString());
      if (span.recording) {
        span.setAttributes({
          [MEMORY_ATTRIBUTE.messages]: turn.length,
          [MEMORY_ATTRIBUTE.toolSteps]: turn[1]?.tools?.length,
        });
      }
      await this.store.appendMany(this.userId, turn);
      return turn.map(copyMessage);
    });
  }

  toDictList(options: ToDictListOptions = {}): Promise<MemoryMessage[]> {
    return traced(MEMORY_SPAN.load, this.spanOptions, async (span) => {
      const { maxTokens } = options;
      if (maxTokens !== undefined) assertPositiveInteger('maxTokens', maxTokens);
      const history = await this.store.list(this.userId);
      const kept = maxTokens === undefined ? history : fitTokenBudget(history, maxTokens);
      if (span.recording) {
        span.setAttributes({
          [MEMORY_ATTRIBUTE.messages]: kept.length,
          [MEMORY_ATTRIBUTE.maxTokens]: maxTokens,
          [MEMORY_ATTRIBUTE.dropped]:
            maxTokens === undefined ? undefined : history.length - kept.length,
        });
      }
      return kept;
    });
  }

  clear(): Promise<void> {
    return traced(MEMORY_SPAN.clear, this.spanOptions, () => this.store.clear(this.userId));
  }
}

/**
 * The two messages of a turn, validated (`InvalidMessageError`, 422, for non-string content, a
 * non-boolean `interrupted` or invalid `tools`), with the tool steps cut to fit their bound.
 * Shared by the real memory and `MockMemory`.
 */
export function buildTurn(
  user: string,
  assistant: string,
  options: AddTurnOptions,
  timestamp: string,
): MemoryMessage[] {
  assertValidMessage('user', user);
  assertValidMessage('assistant', assistant);
  const interrupted: unknown = (options as { interrupted?: unknown } | undefined)?.interrupted;
  if (interrupted !== undefined && typeof interrupted !== 'boolean') {
    throw new InvalidMessageError([
      { param: 'interrupted', problem: `must be a boolean (got ${typeof interrupted})` },
    ]);
  }
  const answer: MemoryMessage = { role: 'assistant', content: assistant, timestamp };
  if (interrupted === true) answer.metadata = { interrupted: true };
  const tools: unknown = (options as { tools?: unknown } | undefined)?.tools;
  const shape = toolStepsProblem(tools, 'tools', Number.POSITIVE_INFINITY);
  if (shape !== undefined) throw new InvalidMessageError([shape]);
  if (tools !== undefined && (tools as ToolStep[]).length > 0) {
    answer.tools = fitToolSteps(tools as ToolStep[]);
    assertValidToolSteps(answer.tools);
  }
  return [{ role: 'user', content: user, timestamp }, answer];
}
