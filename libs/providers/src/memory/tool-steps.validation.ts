import type { ParamProblem } from '../errors/validation.error.js';
import { InvalidMessageError } from './invalid-message.error.js';
import { jsonProblem } from './plain-json.validation.js';

/** Most tool steps one stored message may carry. */
export const MAX_TOOL_STEPS = 64;

/**
 * Largest `tools` list of one stored message, measured as JSON text: four times the 16 KB
 * metadata bound, since tool results are data. `addTurn` cuts the largest values to fit.
 */
export const MAX_TOOL_STEPS_CHARS = 65_536;

/** Longest tool-call id or tool name. */
const MAX_NAME_CHARS = 256;

const FIELDS = new Set(['id', 'name', 'args', 'result', 'error', 'step']);

function nameProblem(value: unknown, path: string): ParamProblem | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_CHARS) {
    return {
      param: path,
      problem: `must be a non-empty string of at most ${MAX_NAME_CHARS} characters`,
    };
  }
  return value.includes('\u0000')
    ? { param: path, problem: 'must not contain NUL (\\u0000) characters' }
    : undefined;
}

function stepProblem(value: unknown, path: string): ParamProblem | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { param: path, problem: 'must be an object with id, name and args' };
  }
  const step = value as Record<string, unknown>;
  const unknownKey = Object.keys(step).find((key) => !FIELDS.has(key));
  if (unknownKey !== undefined) {
    return { param: `${path}.${unknownKey}`, problem: 'is not a tool step field' };
  }
  const problem =
    nameProblem(step.id, `${path}.id`) ??
    nameProblem(step.name, `${path}.name`) ??
    (step.args === undefined
      ? { param: `${path}.args`, problem: 'is required (JSON)' }
      : jsonProblem(step.args, `${path}.args`, 1)) ??
    (step.result === undefined ? undefined : jsonProblem(step.result, `${path}.result`, 1));
  if (problem !== undefined) return problem;
  if (step.error !== undefined) {
    if (typeof step.error !== 'string')
      return { param: `${path}.error`, problem: 'must be a string' };
    if (step.result !== undefined) {
      return { param: `${path}.error`, problem: 'must not be set together with result' };
    }
    const nul = jsonProblem(step.error, `${path}.error`, 1);
    if (nul !== undefined) return nul;
  }
  const round = step.step;
  if (round !== undefined && !(Number.isSafeInteger(round) && (round as number) >= 1)) {
    return { param: `${path}.step`, problem: 'must be a positive integer' };
  }
  return undefined;
}

/**
 * The first reason `tools` is not a valid `MemoryMessage.tools` list, named by its path under
 * `path` (e.g. `tools[2].args.x`); undefined when it is valid or absent. A list is an array of at
 * most {@link MAX_TOOL_STEPS} `{ id, name, args, result?, error?, step? }` objects (no other
 * keys; ids and names non-empty strings of at most 256 characters; `args` and `result` plain
 * JSON; `error` a string, never together with `result`; `step` a positive integer), at most
 * `maxChars` characters as JSON.
 */
export function toolStepsProblem(
  tools: unknown,
  path: string,
  maxChars: number = MAX_TOOL_STEPS_CHARS,
): ParamProblem | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return { param: path, problem: 'must be an array of tool steps' };
  if (tools.length > MAX_TOOL_STEPS) {
    return { param: path, problem: `must hold at most ${MAX_TOOL_STEPS} steps` };
  }
  for (let j = 0; j < tools.length; j += 1) {
    const problem = stepProblem(tools[j], `${path}[${j}]`);
    if (problem !== undefined) return problem;
  }
  if (Number.isFinite(maxChars) && JSON.stringify(tools).length > maxChars) {
    return { param: path, problem: `must be at most ${maxChars} characters as JSON` };
  }
  return undefined;
}

/**
 * Checks a message's optional `tools` (see {@link toolStepsProblem}).
 * @throws InvalidMessageError (422) naming the offending path, e.g. `tools[0].id`.
 */
export function assertValidToolSteps(tools: unknown): void {
  const problem = toolStepsProblem(tools, 'tools');
  if (problem !== undefined) throw new InvalidMessageError([problem]);
}
