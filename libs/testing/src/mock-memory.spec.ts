import { describe, expect, it } from '@jest/globals';
import { InvalidMessageError } from '../../providers/src/memory/invalid-message.error.js';
import type { ConversationMemory } from '../../providers/src/memory/conversation-memory.js';
import type { MemoryRole } from '../../providers/src/memory/memory-message.js';
import { MockMemory } from './mock-memory.js';

const clock = () => new Date('2025-01-01T00:00:00.000Z');

describe('MockMemory', () => {
  it('records addMessage, getHistory and clear calls exactly', () => {
    const memory = new MockMemory({ now: clock });
    memory.addMessage('alice', 'user', 'Hi');
    memory.getHistory('alice', 5);
    memory.getHistory('alice');
    memory.clear('alice');
    expect(memory.calls).toEqual([
      ['addMessage', 'alice', 'user', 'Hi'],
      ['getHistory', 'alice', 5],
      ['getHistory', 'alice', undefined],
      ['clear', 'alice'],
    ]);
  });

  it('records addTurn and stores both messages, the stopped answer marked interrupted', async () => {
    const memory = new MockMemory({ now: clock });
    const turn = memory.addTurn('alice', 'Hi', 'Hello!');
    await memory.for('alice').addTurn('Story?', 'Once upon', { interrupted: true });
    expect(memory.calls).toEqual([
      ['addTurn', 'alice', 'Hi', 'Hello!', { interrupted: false }],
      ['addTurn', 'alice', 'Story?', 'Once upon', { interrupted: true }],
    ]);
    expect(turn).toEqual([
      { role: 'user', content: 'Hi', timestamp: '2025-01-01T00:00:00.000Z' },
      { role: 'assistant', content: 'Hello!', timestamp: '2025-01-01T00:00:00.000Z' },
    ]);
    expect(memory.getHistory('alice').map((m) => [m.content, m.metadata])).toEqual([
      ['Hi', undefined],
      ['Hello!', undefined],
      ['Story?', undefined],
      ['Once upon', { interrupted: true }],
    ]);
  });

  it("stores and records a turn's tool steps like the real memory, refusing bad ones", async () => {
    const memory = new MockMemory({ now: clock });
    const tools = [
      { id: 'c1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 },
    ];
    await memory.for('alice').addTurn('2+3?', '5.', { tools });
    expect(memory.calls).toEqual([
      ['addTurn', 'alice', '2+3?', '5.', { interrupted: false, tools }],
    ]);
    const history = memory.getHistory('alice');
    expect(history.map((m) => m.tools)).toEqual([undefined, tools]);
    (history[1].tools?.[0].args as { expression: string }).expression = 'changed';
    expect(memory.getHistory('alice')[1].tools).toEqual(tools);
    const big = await memory.for('alice').addTurn('fetch', 'ok', {
      tools: [{ id: 'c2', name: 'fetch', args: {}, result: 'x'.repeat(70_000) }],
    });
    expect(big[1].tools?.[0].result).toMatch(/… \[truncated: 70002 characters\]$/);
    await expect(
      memory.for('alice').addTurn('q', 'a', { tools: [{ id: 'c3', name: 'x' }] as never }),
    ).rejects.toThrow('tools[0].args is required');
    expect(memory.getHistory('alice')).toHaveLength(4);
  });

  it('addTurn stores neither message when one is invalid', async () => {
    const memory = new MockMemory();
    expect(() => memory.addTurn('alice', 'Hi', 42 as unknown as string)).toThrow(
      InvalidMessageError,
    );
    await expect(
      memory.for('alice').addTurn('Hi', 'x', { interrupted: 1 as unknown as boolean }),
    ).rejects.toThrow('interrupted must be a boolean');
    expect(memory.getHistory('alice')).toEqual([]);
  });

  it('getHistory returns the newest `limit` messages, oldest first, per user', () => {
    const memory = new MockMemory({ now: clock });
    for (const n of [1, 2, 3, 4]) memory.addMessage('alice', 'user', `m${n}`);
    memory.addMessage('bob', 'assistant', 'other');
    expect(memory.getHistory('alice', 2).map((m) => m.content)).toEqual(['m3', 'm4']);
    expect(memory.getHistory('alice').map((m) => m.content)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(memory.getHistory('alice', 0)).toEqual([]);
    expect(memory.getHistory('bob')).toEqual([
      { role: 'assistant', content: 'other', timestamp: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  it('clear forgets one user only', () => {
    const memory = new MockMemory();
    memory.addMessage('alice', 'user', 'a');
    memory.addMessage('bob', 'user', 'b');
    memory.clear('alice');
    expect(memory.getHistory('alice')).toEqual([]);
    expect(memory.getHistory('bob')).toHaveLength(1);
  });

  it('reset empties calls but keeps histories', () => {
    const memory = new MockMemory();
    memory.addMessage('alice', 'user', 'kept');
    memory.reset();
    expect(memory.calls).toEqual([]);
    expect(memory.getHistory('alice').map((m) => m.content)).toEqual(['kept']);
  });

  it('refuses bad roles and content like the real memory, after recording the call', () => {
    const memory = new MockMemory();
    expect(() => memory.addMessage('alice', 'bot' as MemoryRole, 'x')).toThrow(InvalidMessageError);
    expect(() => memory.addMessage('alice', 'user', 3 as unknown as string)).toThrow(
      'content must be a string',
    );
    expect(() => memory.getHistory('alice', -1)).toThrow('limit');
    expect(memory.calls[0]).toEqual(['addMessage', 'alice', 'bot', 'x']);
    expect(memory.getHistory('alice')).toEqual([]);
  });

  it('keeps at most maxHistory messages when given', () => {
    const memory = new MockMemory({ maxHistory: 2 });
    for (const n of [1, 2, 3]) memory.addMessage('alice', 'user', `m${n}`);
    expect(memory.getHistory('alice').map((m) => m.content)).toEqual(['m2', 'm3']);
  });

  describe('for(userId): the ConversationMemory API', () => {
    it('goes through the recorded methods', async () => {
      const mock = new MockMemory({ now: clock });
      const memory: ConversationMemory = mock.for('alice');
      expect(memory.userId).toBe('alice');
      const stored = await memory.add('user', 'Hi');
      expect(stored).toEqual({
        role: 'user',
        content: 'Hi',
        timestamp: '2025-01-01T00:00:00.000Z',
      });
      expect(await memory.toDictList()).toEqual([stored]);
      await memory.clear();
      expect(await memory.toDictList()).toEqual([]);
      expect(mock.calls).toEqual([
        ['addMessage', 'alice', 'user', 'Hi'],
        ['getHistory', 'alice', undefined],
        ['clear', 'alice'],
        ['getHistory', 'alice', undefined],
      ]);
    });

    it('rejects (never throws synchronously) on bad input, like the real memory', async () => {
      const memory = new MockMemory().for('alice');
      await expect(memory.add('robot' as MemoryRole, 'x')).rejects.toBeInstanceOf(
        InvalidMessageError,
      );
      await expect(memory.toDictList({ maxTokens: 0 })).rejects.toThrow('maxTokens');
    });

    it('applies a maxTokens budget, keeping system messages', async () => {
      const memory = new MockMemory().for('alice');
      await memory.add('system', 'rules');
      await memory.add('user', 'x'.repeat(400));
      await memory.add('user', 'last');
      const kept = await memory.toDictList({ maxTokens: 20 });
      expect(kept.map((m) => m.content)).toEqual(['rules', 'last']);
    });
  });
});
