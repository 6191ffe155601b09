import { type ParamProblem } from '../../../../providers/src/index.js';
import type { HistoryMessage } from '../../../../providers/src/internal.js';
import { ValidationError } from '../../../../providers/src/internal.js';

/** What a `useChat` request asks, read from the AI SDK's request body by {@link readUiChatRequest}. */
export interface UiChatRequest {
  /** The chat's id (`useChat`'s `id`), e.g. the key of its memory. */
  id: string;
  /** `submit-message` for a new message, `regenerate-message` to answer the last one again. */
  trigger: 'submit-message' | 'regenerate-message';
  /** The message to regenerate, when the client named one. */
  messageId?: string;
  /** The text of the last message, the user's (its text parts, joined). */
  message: string;
  /** The messages before it, as toolkit's history (text parts only; tool and data parts dropped). */
  history: HistoryMessage[];
}

/** Bounds of {@link readUiChatRequest}. */
export interface UiChatRequestLimits {
  /**
   * Most messages a request may carry.
   * @default 200
   */
  maxMessages?: number;
}

const ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system']);
const TRIGGERS: ReadonlySet<string> = new Set(['submit-message', 'regenerate-message']);
/** Part types of a UI message besides `tool-<name>` and `data-<name>`. */
const PART_TYPES: ReadonlySet<string> = new Set([
  'text',
  'reasoning',
  'step-start',
  'file',
  'source-url',
  'source-document',
  'dynamic-tool',
]);

/**
 * Reads the body `DefaultChatTransport` (`useChat`) posts — `{ id, messages, trigger, messageId }`
 * with UI messages made of `parts` — into the user's new message and toolkit's history. A body
 * that is not one (no `id`, no messages or too many, a message of an unknown role or part type,
 * a conversation not ending with a user message) is a `ValidationError` (422) naming each field.
 *
 * @example
 * @Route('/api/chat', { methods: ['POST'] })
 * @Stream({ format: 'ui-message' })
 * chat(@Body() body: unknown, @RequestSignal() signal: AbortSignal) {
 *   const { message, history } = readUiChatRequest(body);
 *   return this.llm.streamEvents(message, { history, signal });
 * }
 */
export function readUiChatRequest(body: unknown, limits: UiChatRequestLimits = {}): UiChatRequest {
  const maxMessages = limits.maxMessages ?? 200;
  const problems: ParamProblem[] = [];
  if (!isRecord(body)) throw new ValidationError([{ param: 'body', problem: 'must be an object' }]);
  const { id, messages, trigger = 'submit-message', messageId } = body;
  if (typeof id !== 'string' || id === '') problems.push({ param: 'id', problem: 'is required' });
  if (typeof trigger !== 'string' || !TRIGGERS.has(trigger)) {
    problems.push({ param: 'trigger', problem: 'must be submit-message or regenerate-message' });
  }
  if (messageId !== undefined && typeof messageId !== 'string') {
    problems.push({ param: 'messageId', problem: 'must be a string' });
  }
  const turns: HistoryMessage[] = [];
  if (!Array.isArray(messages) || messages.length === 0) {
    problems.push({ param: 'messages', problem: 'must be a non-empty array of UI messages' });
  } else if (messages.length > maxMessages) {
    problems.push({ param: 'messages', problem: `must hold at most ${maxMessages} messages` });
  } else {
    messages.forEach((m: unknown, i) => turns.push(readMessage(m, `messages[${i}]`, problems)));
    if (problems.length === 0 && turns.at(-1)?.role !== 'user') {
      problems.push({ param: `messages[${turns.length - 1}].role`, problem: 'must be user' });
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const last = turns.pop() as HistoryMessage;
  return {
    id: id as string,
    trigger: trigger as UiChatRequest['trigger'],
    ...(typeof messageId === 'string' ? { messageId } : {}),
    message: last.content,
    history: turns,
  };
}

function readMessage(value: unknown, where: string, problems: ParamProblem[]): HistoryMessage {
  if (!isRecord(value)) {
    problems.push({ param: where, problem: 'must be an object with role and parts' });
    return { role: '', content: '' };
  }
  const role = value.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    problems.push({ param: `${where}.role`, problem: 'must be "user", "assistant" or "system"' });
  }
  if (!Array.isArray(value.parts)) {
    problems.push({ param: `${where}.parts`, problem: 'must be an array' });
    return { role: String(role), content: '' };
  }
  let content = '';
  value.parts.forEach((part: unknown, j) => {
    const at = `${where}.parts[${j}]`;
    const type = isRecord(part) ? part.type : undefined;
    if (typeof type !== 'string' || !isKnownPart(type)) {
      problems.push({ param: `${at}.type`, problem: 'is not a UI message part type' });
    } else if (type === 'text') {
      const text = (part as Record<string, unknown>).text;
      if (typeof text === 'string') content += text;
      else problems.push({ param: `${at}.text`, problem: 'must be a string' });
    }
  });
  return { role: String(role), content };
}

function isKnownPart(type: string): boolean {
  return PART_TYPES.has(type) || type.startsWith('tool-') || type.startsWith('data-');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
