import { describe, expect, it } from '@jest/globals';
import type { ChatModel } from '../../providers/src/llm/chat-model.interface.js';
import { LLM } from '../../providers/src/llm/llm.js';
import { MockLLM } from './mock-llm.js';

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe('MockLLM (SPEC 6)', () => {
  it('defaults: response "Mock response", model "mock-model", no calls', () => {
    const llm = new MockLLM();
    expect(llm.defaultResponse).toBe('Mock response');
    expect(llm.model).toBe('mock-model');
    expect(llm.calls).toEqual([]);
  });

  it('takes response and model', () => {
    const llm = new MockLLM({ response: 'Hi!', model: 'test-model' });
    expect(llm.defaultResponse).toBe('Hi!');
    expect(llm.model).toBe('test-model');
  });

  it("chat answers the response and records ['chat', messages, opts]", async () => {
    const llm = new MockLLM();
    const history = [{ role: 'user', content: 'earlier' }];
    expect(await llm.chat('Hello', { history })).toBe('Mock response');
    expect(await llm.chat([{ role: 'user', content: 'as a list' }])).toBe('Mock response');
    expect(llm.calls).toEqual([
      ['chat', 'Hello', { history }],
      ['chat', [{ role: 'user', content: 'as a list' }], {}],
    ]);
  });

  it("complete answers the response and records ['complete', prompt, opts]", async () => {
    const llm = new MockLLM({ response: 'done' });
    expect(await llm.complete('Write', { maxTokens: 5 })).toBe('done');
    expect(llm.calls).toEqual([['complete', 'Write', { maxTokens: 5 }]]);
  });

  it("stream yields one character at a time and records ['stream', prompt, opts]", async () => {
    const llm = new MockLLM({ response: 'abc' });
    expect(await collect(llm.stream('go'))).toEqual(['a', 'b', 'c']);
    expect(llm.calls).toEqual([['stream', 'go', {}]]);
  });

  it("chat with stream: true gives the character stream and records ['chat', message, opts]", async () => {
    const llm = new MockLLM({ response: 'Hey' });
    const stream = await llm.chat('hi', { stream: true });
    expect(await collect(stream)).toEqual(['H', 'e', 'y']);
    expect(llm.calls).toEqual([['chat', 'hi', { stream: true }]]);
  });

  it("embed gives 384 values of 0.1 and records ['embed', text]", async () => {
    const llm = new MockLLM();
    const vector = await llm.embed('some text');
    expect(vector).toHaveLength(384);
    expect(vector.every((v) => v === 0.1)).toBe(true);
    const vectors = await llm.embed(['a', 'b']);
    expect(vectors).toHaveLength(2);
    expect(vectors[1]).toEqual(vector);
    expect(llm.calls).toEqual([
      ['embed', 'some text'],
      ['embed', ['a', 'b']],
    ]);
  });

  it('reset() empties calls, in place', async () => {
    const llm = new MockLLM();
    const calls = llm.calls;
    await llm.chat('x');
    llm.reset();
    expect(llm.calls).toEqual([]);
    expect(calls).toBe(llm.calls);
  });

  it('defaultResponse can change between calls', async () => {
    const llm = new MockLLM();
    llm.defaultResponse = 'changed';
    expect(await llm.complete('x')).toBe('changed');
  });

  it('scripts one answer per call, errors included, then falls back to the response', async () => {
    const llm = new MockLLM({ responses: ['first'] }).queueResponses(
      new Error('rate limited'),
      'third',
    );
    expect(await llm.chat('1')).toBe('first');
    await expect(llm.complete('2')).rejects.toThrow('rate limited');
    expect(await collect(llm.stream('3'))).toEqual(['t', 'h', 'i', 'r', 'd']);
    expect(await llm.chat('4')).toBe('Mock response');
    expect(llm.calls.map((c) => c[0])).toEqual(['chat', 'complete', 'stream', 'chat']);
  });

  it('computes answers with a function of the call', async () => {
    const llm = new MockLLM({
      respond: (call) =>
        call[0] === 'chat' && typeof call[1] === 'string' ? `echo: ${call[1]}` : 'other',
    });
    expect(await llm.chat('ping')).toBe('echo: ping');
    expect(await llm.complete('x')).toBe('other');
  });

  it('a scripted error in a stream surfaces when iterated', async () => {
    const llm = new MockLLM({ responses: [new Error('boom')] });
    const stream = llm.stream('x');
    await expect(collect(stream)).rejects.toThrow('boom');
  });

  it('is usable wherever an LLM is: both are ChatModels', async () => {
    async function greet(model: ChatModel): Promise<string> {
      const chunks: string[] = [];
      for await (const chunk of await model.chat('Hi', { stream: true })) chunks.push(chunk);
      return chunks.join('');
    }
    expect(await greet(new MockLLM({ response: 'mocked' }))).toBe('mocked');
    expect(await greet(new LLM('echo', { env: {} }))).toMatch(/^Hello! I am echo/);
  });
});
