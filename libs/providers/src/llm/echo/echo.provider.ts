import { sleep } from '../provider/abort.js';
import { usageOf } from '../provider/language-model.interface.js';
import type {
  GenerateResult,
  LanguageModel,
  ModelRequest,
  StreamPart,
} from '../provider/language-model.interface.js';
import { echoReply } from './echo-reply.js';
import { echoToolTurn } from './echo-tools.js';
import { echoObject } from './echo-object.js';
import { hashedEmbedding, words } from './hashed-embedding.js';

/** Options of the offline model. */
export interface EchoModelOptions {
  /** Pause between streamed words, so a chat UI visibly streams. @default 0 */
  delayMs?: number;
  /** Length of `embed()` vectors. @default 256 */
  dimensions?: number;
}

function countTokens(request: ModelRequest): number {
  const all = [request.system ?? '', ...request.messages.map((m) => m.content)].join(' ');
  return words(all).length;
}

/**
 * `echo`: an offline, deterministic model. No network, no key. Answers from the message and
 * the history (see `echoReply`), streams word by word, honours `maxTokens` (one word = one
 * token) and embeds with hashed bag-of-words vectors.
 */
export class EchoModel implements LanguageModel {
  constructor(private readonly options: EchoModelOptions = {}) {}

  private reply(request: ModelRequest): { tokens: string[]; truncated: boolean } {
    const turn = echoToolTurn(request);
    const lastUser = request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const text = request.responseFormat
      ? JSON.stringify(echoObject(request.responseFormat.schema, lastUser))
      : turn?.kind === 'results'
        ? turn.text
        : echoReply(request.messages);
    const tokens = text.match(/\S+\s*/g) ?? [];
    const truncated = tokens.length > request.maxTokens;
    return { tokens: truncated ? tokens.slice(0, request.maxTokens) : tokens, truncated };
  }

  generate(request: ModelRequest): Promise<GenerateResult> {
    if (request.signal.aborted) return Promise.reject(new Error('aborted'));
    const turn = echoToolTurn(request);
    if (turn?.kind === 'call') {
      return Promise.resolve({
        text: '',
        toolCalls: [turn.call],
        finishReason: 'tool-calls',
        usage: usageOf(countTokens(request), 1),
      });
    }
    const { tokens, truncated } = this.reply(request);
    return Promise.resolve({
      text: tokens.join('').trimEnd(),
      finishReason: truncated ? 'length' : 'stop',
      usage: usageOf(countTokens(request), tokens.length),
    });
  }

  async *stream(request: ModelRequest): AsyncGenerator<StreamPart> {
    yield { type: 'stream-start' };
    const turn = echoToolTurn(request);
    if (turn?.kind === 'call') {
      yield { type: 'tool-call', ...turn.call };
      yield { type: 'finish', finishReason: 'tool-calls', usage: usageOf(countTokens(request), 1) };
      return;
    }
    const { tokens, truncated } = this.reply(request);
    for (const [i, token] of tokens.entries()) {
      if (this.options.delayMs) await sleep(this.options.delayMs, request.signal);
      else if (request.signal.aborted) return;
      yield { type: 'text-delta', text: i === tokens.length - 1 ? token.trimEnd() : token };
    }
    yield {
      type: 'finish',
      finishReason: truncated ? 'length' : 'stop',
      usage: usageOf(countTokens(request), tokens.length),
    };
  }

  embed(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map((t) => hashedEmbedding(t, this.options.dimensions ?? 256)));
  }
}
