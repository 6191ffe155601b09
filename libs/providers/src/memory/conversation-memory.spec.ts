import { describe, expect, it } from '@jest/globals';
import { ToolkitError } from '../errors/toolkit.error.js';
import { StoreConversationMemory } from './conversation-memory.js';
import { InMemoryMemoryStore } from './in-memory-memory.store.js';
import { InvalidMessageError } from './invalid-message.error.js';
import type { MemoryRole } from './memory-message.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';

const fixedClock = (iso: string) => () => new Date(iso);

describe('StoreConversationMemory over InMemoryMemoryStore', () => {
  it('stamps messages with an ISO-8601 timestamp from the clock', async () => {
    const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice', {
      now: fixedClock('2025-03-04T05:06:07.089Z'),
    });
    const stored = await memory.add('user', 'Hi');
    expect(stored).toEqual({ role: 'user', content: 'Hi', timestamp: '2025-03-04T05:06:07.089Z' });
    expect(await memory.toDictList()).toEqual([stored]);
  });

  it('rejects an unknown role with a 422 naming the role and the allowed values', async () => {
    const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice');
    const error = await memory.add('bot' as MemoryRole, 'hi').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect(ToolkitError.isInstance(error) && error.statusCode).toBe(422);
    expect((error as Error).message).toBe(
      'Invalid parameters: role must be one of user, assistant, system (got "bot")',
    );
    expect(await memory.toDictList()).toEqual([]);
  });

  it('rejects non-string content and NUL characters', async () => {
    const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice');
    await expect(memory.add('user', 42 as unknown as string)).rejects.toThrow(
      'content must be a string (got number)',
    );
    await expect(memory.add('user', null as unknown as string)).rejects.toThrow('(got null)');
    await expect(memory.add('user', 'a\u0000b')).rejects.toThrow('must not contain NUL');
  });

  it('rejects an empty user id at construction', () => {
    expect(() => new StoreConversationMemory(new InMemoryMemoryStore(), '')).toThrow(
      InvalidMessageError,
    );
  });

  it.each([
    ['NUL', 'session/a\u0000b'],
    ['another control character', 'session/a\u0001b'],
    ['a line break', 'session/a\nb'],
    ['DEL', 'session/a\u007Fb'],
    ['an unpaired surrogate', 'session/a\uD800b'],
  ])('rejects a user id with %s at construction, with a 422 naming userId', (_what, id) => {
    let error: unknown;
    try {
      new StoreConversationMemory(new InMemoryMemoryStore(), id);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect(ToolkitError.isInstance(error) && error.statusCode).toBe(422);
    expect((error as Error).message).toMatch(
      /^Invalid parameters: userId must not contain control/,
    );
  });

  it('keeps user ids of any script, emoji included', async () => {
    const store = new InMemoryMemoryStore();
    const memory = new StoreConversationMemory(store, 'séance/日本語/🙂 me');
    await memory.add('user', 'hi');
    expect((await memory.toDictList()).map((m) => m.content)).toEqual(['hi']);
  });

  it('applies a maxTokens budget and validates it', async () => {
    const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice');
    await memory.add('system', 'Be brief.');
    await memory.add('user', 'x'.repeat(400));
    await memory.add('assistant', 'ok');
    await memory.add('user', 'short');
    const kept = await memory.toDictList({ maxTokens: 30 });
    expect(kept.map((m) => m.content)).toEqual(['Be brief.', 'short']);
    await expect(memory.toDictList({ maxTokens: 0 })).rejects.toThrow(InvalidMessageError);
    await expect(memory.toDictList({ maxTokens: 1.5 })).rejects.toThrow('maxTokens');
  });

  it('returns copies: mutating a result never changes the history', async () => {
    const memory = new StoreConversationMemory(new InMemoryMemoryStore(), 'alice');
    await memory.add('user', 'original');
    const [first] = await memory.toDictList();
    first.content = 'changed';
    expect((await memory.toDictList())[0].content).toBe('original');
  });

  it('a closed in-memory store answers 503', async () => {
    const store = new InMemoryMemoryStore();
    await store.close();
    await expect(store.list('alice')).rejects.toBeInstanceOf(MemoryUnavailableError);
  });

  it('refuses a max_history that is not a positive integer', () => {
    expect(() => new InMemoryMemoryStore({ maxHistory: 0 })).toThrow(
      'Invalid configuration: memory.max_history must be a positive integer (got 0)',
    );
  });
});
