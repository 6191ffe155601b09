import { ValidationError } from '../errors/validation.error.js';
import type { ParamProblem } from '../errors/validation.error.js';
import type { ChatInput, HistoryMessage } from './chat-model.interface.js';
import type { ModelMessage } from './provider/language-model.interface.js';
import { replayToolSteps } from './replay-tool-steps.js';
import { toolStepsProblem } from '../memory/tool-steps.validation.js';
import type { ToolStep } from '../memory/memory-message.js';

/** A validated conversation: the system prompt apart, the turns oldest first. */
export interface Conversation {
  system?: string;
  messages: ModelMessage[];
}

function collect(
  items: readonly HistoryMessage[],
  param: string,
  system: string[],
  messages: ModelMessage[],
  problems: ParamProblem[],
): void {
  items.forEach((item: unknown, i) => {
    const where = `${param}[${i}]`;
    if (typeof item !== 'object' || item === null) {
      problems.push({ param: where, problem: 'must be an object with role and content' });
      return;
    }
    const { role, content, tools } = item as { role?: unknown; content?: unknown; tools?: unknown };
    const toolProblem = toolStepsProblem(tools, `${where}.tools`, Number.POSITIVE_INFINITY);
    if (typeof content !== 'string') {
      problems.push({ param: `${where}.content`, problem: 'must be a string' });
    } else if (tools !== undefined && role !== 'assistant') {
      problems.push({ param: `${where}.tools`, problem: 'is only allowed on assistant messages' });
    } else if (toolProblem !== undefined) {
      problems.push(toolProblem);
    } else if (role === 'system') {
      system.push(content);
    } else if (role === 'assistant' && tools !== undefined && (tools as ToolStep[]).length > 0) {
      messages.push(...replayToolSteps(tools as ToolStep[], content));
    } else if (role === 'user' || role === 'assistant') {
      messages.push({ role, content });
    } else {
      problems.push({ param: `${where}.role`, problem: 'must be "user", "assistant" or "system"' });
    }
  });
}

/**
 * Turns `chat()` arguments into one conversation: history first, then the new message. System
 * entries anywhere join the `system` option (which comes first). An assistant message with
 * `tools` (as memory stores them) becomes its tool calls and results, round by round, then its
 * text (see `replayToolSteps`). Bad input → 422 naming each offending element, e.g.
 * `history[1].tools[0].id`.
 */
export function buildConversation(
  input: ChatInput,
  options: { history?: readonly HistoryMessage[]; system?: string },
): Conversation {
  const problems: ParamProblem[] = [];
  const system: string[] = [];
  const messages: ModelMessage[] = [];
  if (options.system !== undefined) {
    if (typeof options.system === 'string') system.push(options.system);
    else problems.push({ param: 'system', problem: 'must be a string' });
  }
  if (options.history !== undefined) {
    if (Array.isArray(options.history))
      collect(options.history, 'history', system, messages, problems);
    else problems.push({ param: 'history', problem: 'must be an array of { role, content }' });
  }
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
  } else if (Array.isArray(input)) {
    collect(input, 'messages', system, messages, problems);
    if (messages.length === 0 && problems.length === 0) {
      problems.push({ param: 'messages', problem: 'must contain a user or assistant message' });
    }
  } else {
    problems.push({ param: 'message', problem: 'must be a string or an array of messages' });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const prompt = system.filter((s) => s.trim() !== '').join('\n\n');
  return prompt ? { system: prompt, messages } : { messages };
}
