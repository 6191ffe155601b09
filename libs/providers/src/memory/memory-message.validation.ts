import type { ParamProblem } from '../errors/validation.error.js';
import { InvalidMessageError } from './invalid-message.error.js';
import { MEMORY_ROLES } from './memory-message.js';
import type { MemoryMessage, MemoryRole } from './memory-message.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function show(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

function roleProblem(role: unknown): ParamProblem | undefined {
  if (typeof role === 'string' && (MEMORY_ROLES as readonly string[]).includes(role))
    return undefined;
  return {
    param: 'role',
    problem: `must be one of ${MEMORY_ROLES.join(', ')} (got ${show(role)})`,
  };
}

function contentProblem(content: unknown): ParamProblem | undefined {
  if (typeof content !== 'string') {
    return { param: 'content', problem: `must be a string (got ${show(content)})` };
  }
  // PostgreSQL text cannot hold NUL; refusing it everywhere keeps the three backends identical.
  if (content.includes('\u0000')) {
    return { param: 'content', problem: 'must not contain NUL (\\u0000) characters' };
  }
  return undefined;
}

/**
 * Checks a role and content before they are stored.
 * @throws InvalidMessageError (422) naming each bad argument.
 */
export function assertValidMessage(role: unknown, content: unknown): asserts role is MemoryRole {
  const problems = [roleProblem(role), contentProblem(content)].filter(
    (p): p is ParamProblem => p !== undefined,
  );
  if (problems.length > 0) throw new InvalidMessageError(problems);
}

/**
 * Checks a whole stored message (role, content and an ISO-8601 timestamp).
 * @throws InvalidMessageError (422).
 */
export function assertValidStoredMessage(message: unknown): asserts message is MemoryMessage {
  if (typeof message !== 'object' || message === null) {
    throw new InvalidMessageError([{ param: 'message', problem: 'must be an object' }]);
  }
  const { role, content, timestamp } = message as Record<string, unknown>;
  assertValidMessage(role, content);
  if (typeof timestamp !== 'string' || !ISO_8601.test(timestamp)) {
    throw new InvalidMessageError([
      { param: 'timestamp', problem: `must be an ISO-8601 string (got ${show(timestamp)})` },
    ]);
  }
}

/**
 * Checks a conversation owner id: a non-empty string of at most 512 characters.
 * @throws InvalidMessageError (422).
 */
export function assertValidUserId(userId: unknown): asserts userId is string {
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 512) {
    throw new InvalidMessageError([
      {
        param: 'userId',
        problem: `must be a non-empty string of at most 512 characters (got ${show(userId)})`,
      },
    ]);
  }
}

/**
 * Checks a positive whole number such as `max_history` or a read limit.
 * @throws InvalidMessageError (422).
 */
export function assertPositiveInteger(
  name: string,
  value: unknown,
  allowZero = false,
): asserts value is number {
  const ok =
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    (allowZero ? value >= 0 : value > 0);
  if (!ok) {
    throw new InvalidMessageError([
      {
        param: name,
        problem: `must be a ${allowZero ? 'non-negative' : 'positive'} integer (got ${show(value)})`,
      },
    ]);
  }
}
