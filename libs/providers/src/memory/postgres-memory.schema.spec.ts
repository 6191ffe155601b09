import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../errors/config.error.js';
import { memoryTable, tableNameFor } from './postgres-memory.schema.js';

describe('memoryTable', () => {
  it('derives the table from the key prefix', () => {
    expect(tableNameFor('toolkit')).toBe('toolkit_memory');
    expect(tableNameFor('my-app:v2')).toBe('my_app_v2_memory');
  });

  it('quotes plain and schema-qualified names', () => {
    expect(memoryTable('toolkit_memory').quoted).toBe('"toolkit_memory"');
    const table = memoryTable('app.history');
    expect(table.quoted).toBe('"app"."history"');
    expect(table.ddl[1]).toContain('"history_user_id_idx" ON "app"."history" (user_id, id)');
  });

  it('names the max_conversations bookkeeping after the table, in its schema', () => {
    const table = memoryTable('app.history');
    expect(table.lru).toBe('"app"."history_lru"');
    expect(table.made).toBe(`'"app"."history_lru_made"'`);
    expect(table.gone).toBe(`'"app"."history_lru_gone"'`);
    // 50-character names leave room for the longest derived name within PostgreSQL's 63.
    const longest = memoryTable('x'.repeat(50));
    expect(longest.ddl.join('\n')).toContain(`"${'x'.repeat(50)}_lru_made"`);
  });

  it.each(['bad"name', 'a b', 'x;drop table y', 'a.b.c', '1abc', 'x'.repeat(51)])(
    'refuses %p',
    (name) => {
      expect(() => memoryTable(name)).toThrow(ConfigError);
    },
  );
});
