import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../src/errors/validation.error.js';
import { LLM } from '../../src/llm/llm.js';
import { StoreConversationMemory } from '../../src/memory/conversation-memory.js';
import { InMemoryMemoryStore } from '../../src/memory/in-memory-memory.store.js';
import type { MemoryMessage, ToolStep } from '../../src/memory/memory-message.js';
import { startFakeLlmServer } from '../support/fake-llm.server.js';
import type { FakeLlmServer } from '../support/fake-llm.server.js';

/** Two rounds: a calculator call and a failed lookup together, then a clock call. */
const TOOLS: ToolStep[] = [
  { id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 },
  { id: 'c2', name: 'lookup', args: { q: 'x' }, error: 'unknown tool', step: 1 },
  { id: 'c3', name: 'clock', args: {}, result: '12:00', step: 2 },
];

/** The history a template passes: what memory gives back after a tool-using turn. */
async function storedHistory(): Promise<MemoryMessage[]> {
  const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice');
  await memory.addTurn('2+3, and the time?', '5, at noon.', { tools: TOOLS });
  return memory.toDictList();
}

describe('chat({ history }) replays stored tool steps through each real SDK', () => {
  let server: FakeLlmServer;

  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('sends OpenAI tool_calls and tool messages, per round, before the answer', async () => {
    const llm = new LLM('gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseURL },
      maxRetries: 0,
    });
    await llm.chat('And now?', { history: await storedHistory() });
    const call = (id: string, name: string, args: string) => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    });
    expect(server.requests[0].body.messages).toEqual([
      { role: 'user', content: '2+3, and the time?' },
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [
          call('c1', 'calculator', '{"expression":"2+3"}'),
          call('c2', 'lookup', '{"q":"x"}'),
        ],
      }),
      { role: 'tool', tool_call_id: 'c1', content: '5' },
      { role: 'tool', tool_call_id: 'c2', content: '{"error":"unknown tool"}' },
      expect.objectContaining({ role: 'assistant', tool_calls: [call('c3', 'clock', '{}')] }),
      { role: 'tool', tool_call_id: 'c3', content: '12:00' },
      { role: 'assistant', content: '5, at noon.' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('sends Anthropic tool_use and tool_result blocks, per round, before the answer', async () => {
    const llm = new LLM('claude-3-5-haiku-latest', {
      env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.anthropicBaseURL },
      maxRetries: 0,
    });
    await llm.chat('And now?', { history: await storedHistory() });
    expect(server.requests[0].body.messages).toEqual([
      { role: 'user', content: '2+3, and the time?' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'calculator', input: { expression: '2+3' } },
          { type: 'tool_use', id: 'c2', name: 'lookup', input: { q: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '5' },
          {
            type: 'tool_result',
            tool_use_id: 'c2',
            content: '{"error":"unknown tool"}',
            is_error: true,
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'clock', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: '12:00' }] },
      { role: 'assistant', content: '5, at noon.' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('refuses a malformed tools field with a 422 naming the element, sending nothing', async () => {
    const llm = new LLM('gpt-4o-mini', {
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseURL },
      maxRetries: 0,
    });
    const history = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', tools: [{ id: 'c1', name: 'x', args: {}, step: -1 }] },
    ];
    const error = await llm.chat('next', { history }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).statusCode).toBe(422);
    expect((error as ValidationError).details).toEqual([
      { param: 'history[1].tools[0].step', problem: 'must be a positive integer' },
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
