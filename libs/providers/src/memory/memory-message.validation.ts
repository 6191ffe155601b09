import type { ParamProblem } from '../errors/validation.error.js';
import { InvalidMessageError } from './invalid-message.error.js';
import { MEMORY_ROLES } from './memory-message.js';
import type { MemoryMessage, MemoryRole, ToolStep } from './memory-message.js';
import { jsonProblem } from './plain-json.validation.js';
import { assertValidToolSteps } from './tool-steps.validation.js';

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
 * Checks a whole stored message (role, content, an ISO-8601 timestamp, optional metadata and
 * optional tool steps).
 * @throws InvalidMessageError (422).
 */
export function assertValidStoredMessage(message: unknown): asserts message is MemoryMessage {
  if (typeof message !== 'object' || message === null) {
    throw new InvalidMessageError([{ param: 'message', problem: 'must be an object' }]);
  }
  const { role, content, timestamp, metadata, tools } = message as Record<string, unknown>;
  assertValidMessage(role, content);
  assertValidMetadata(metadata);
  assertValidToolSteps(tools);
  if (typeof timestamp !== 'string' || !ISO_8601.test(timestamp)) {
    throw new InvalidMessageError([
      { param: 'timestamp', problem: `must be an ISO-8601 string (got ${show(timestamp)})` },
    ]);
  }
}

/**
 * Control characters (C0 with NUL, DEL, C1) and halves of surrogate pairs: never part of an id,
 * and PostgreSQL cannot store NUL.
 */
const INVALID_ID_CHARACTER = /\p{Cc}|\p{Cs}/u;

/**
 * Checks a conversation owner id: a non-empty string of at most 512 characters, without control
 * characters (NUL included) or unpaired surrogates, so every backend stores it alike.
 * @throws InvalidMessageError (422) naming `userId`.
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
  if (INVALID_ID_CHARACTER.test(userId)) {
    throw new InvalidMessageError([
      {
        param: 'userId',
        problem: `must not contain control characters (NUL included) or unpaired surrogates (got ${show(userId)})`,
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

/** Largest metadata object, measured as JSON text. */
export const MAX_METADATA_BYTES = 16_384;
/**
 * Checks a message's optional `metadata`: absent, or a plain JSON object (strings without NUL,
 * finite numbers, booleans, null, arrays, plain objects; at most 16 levels deep and 16 KB as JSON).
 * @throws InvalidMessageError (422) naming the offending path, e.g. `metadata.score`.
 */
export function assertValidMetadata(
  metadata: unknown,
): asserts metadata is Record<string, unknown> | undefined {
  if (metadata === undefined) return;
  let problem: ParamProblem | undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    problem = { param: 'metadata', problem: `must be a plain JSON object (got ${show(metadata)})` };
  } else {
    problem = jsonProblem(metadata, 'metadata', 0);
    if (problem === undefined && JSON.stringify(metadata).length > MAX_METADATA_BYTES) {
      problem = {
        param: 'metadata',
        problem: `must be at most ${MAX_METADATA_BYTES} characters as JSON`,
      };
    }
  }
  if (problem !== undefined) throw new InvalidMessageError([problem]);
}

/**
 * A copy of a stored message with only its known fields (`metadata` and `tools` only when
 * present).
 */
export function copyMessage(message: MemoryMessage): MemoryMessage {
  const copy: MemoryMessage = {
    role: message.role,
    content: message.content,
    timestamp: message.timestamp,
  };
  if (message.metadata !== undefined) {
    copy.metadata = JSON.parse(JSON.stringify(message.metadata)) as Record<string, unknown>;
  }
  if (message.tools !== undefined) {
    copy.tools = JSON.parse(JSON.stringify(message.tools)) as ToolStep[];
  }
  return copy;
}

/**
 * Checks a list of stored messages (`MemoryStore.appendMany`): an array whose every element
 * passes {@link assertValidStoredMessage}.
 * @throws InvalidMessageError (422) naming the first bad message's index.
 */
export function assertValidMessages(messages: unknown): asserts messages is MemoryMessage[] {
  if (!Array.isArray(messages)) {
    throw new InvalidMessageError([
      { param: 'messages', problem: `must be an array (got ${show(messages)})` },
    ]);
  }
  messages.forEach((message: unknown, index) => {
    try {
      assertValidStoredMessage(message);
    } catch (error) {
      if (!(error instanceof InvalidMessageError) || messages.length === 1) throw error;
      throw new InvalidMessageError(
        error.details.map((p) => ({ param: `messages[${index}].${p.param}`, problem: p.problem })),
      );
    }
  });
}
