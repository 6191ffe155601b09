import type { LlmStreamEvent, GenerateStep, ToolStep } from '../../../providers/src/index.js';
import { jsonProblem } from '../../../providers/src/internal.js';

/** Halves of surrogate pairs, which PostgreSQL's jsonb refuses. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * NUL and lone surrogates cannot be stored (PostgreSQL): replaced, like NUL in the answer text,
 * by U+FFFD.
 */
const noNul = (text: string): string =>
  text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');

/**
 * A tool's value as memory can store it: its JSON form (as the model saw it: dates become
 * strings, functions and `undefined` fields vanish), NUL characters as U+FFFD; a value with no
 * JSON form, or nested too deep, is kept as its text.
 */
export function storableJson(value: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, item: unknown) =>
      typeof item === 'string' ? noNul(item) : item,
    );
  } catch {
    return noNul(String(value));
  }
  if (text === undefined) return null;
  const plain: unknown = JSON.parse(text);
  return jsonProblem(plain, 'value', 1) === undefined ? plain : text;
}

/**
 * Gathers the tool steps of a `llm.streamEvents()` stream, for `recordTurn`: each `tool-call`
 * event becomes a {@link ToolStep}, paired with the `tool-result` event of the same id. The
 * tool loop emits a round's calls, then its results, so a call after a result starts the next
 * round (`step`).
 */
export class ToolStepCollector {
  private readonly steps: ToolStep[] = [];
  private readonly pending = new Map<string, ToolStep>();
  private round = 0;
  private afterResult = true;
  private answered = 0;

  /** Whether some call has come back (with a result or an error from its tool). */
  get anyCompleted(): boolean {
    return this.answered > 0;
  }

  /** Takes one event; events other than `tool-call` and `tool-result` are ignored. */
  add(event: LlmStreamEvent): void {
    if (event.type === 'tool-call') {
      if (this.afterResult) this.round += 1;
      this.afterResult = false;
      const { id, name, args } = event.data;
      // Memory stores ids of 1 to 256 characters; a vendor's odd id must not cost the turn.
      const stored = id.length > 0 && id.length <= 256 ? id : `call_${this.steps.length + 1}`;
      const step: ToolStep = {
        id: noNul(stored),
        name,
        args: storableJson(args),
        step: this.round,
      };
      this.steps.push(step);
      this.pending.set(id, step);
    } else if (event.type === 'tool-result') {
      this.afterResult = true;
      const step = this.pending.get(event.data.id);
      if (step === undefined) return;
      this.pending.delete(event.data.id);
      this.answered += 1;
      if (event.data.error !== undefined) step.error = noNul(event.data.error);
      else step.result = storableJson(event.data.result);
    }
  }

  /**
   * The steps, in call order; a call with no result yet gets `error: unanswered` (`interrupted`
   * for a stopped answer; `not run` when the loop ended without running it, at `maxSteps`).
   */
  finish(unanswered: string): ToolStep[] {
    for (const step of this.pending.values()) step.error = unanswered;
    this.pending.clear();
    return this.steps;
  }
}

/**
 * The tool steps of a `llm.generate()` answer (its `steps`), ready for
 * `memory.addTurn(message, answer.text, { tools })`: each call with its result or error, `step`
 * numbered by model call, values stored as their JSON form like `recordTurn` does (a call the
 * loop did not run, at `maxSteps`, keeps its `not run` error). Empty when no tool was called.
 *
 * @example
 * const answer = await llm.generate(message, { history, tools });
 * await memory.addTurn(message, answer.text, { tools: toolStepsOf(answer.steps) });
 */
export function toolStepsOf(steps: readonly GenerateStep[]): ToolStep[] {
  const collector = new ToolStepCollector();
  for (const step of steps) {
    for (const call of step.toolCalls) {
      collector.add({ type: 'tool-call', data: { id: call.id, name: call.name, args: call.args } });
    }
    for (const call of step.toolCalls) {
      if (call.error === undefined && !('result' in call)) continue;
      collector.add({ type: 'tool-result', data: call });
    }
  }
  return collector.finish('not run');
}
