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

  it.each(['bad"name', 'a b', 'x;drop table y', 'a.b.c', '1abc', 'x'.repeat(51)])(
    'refuses %p',
    (name) => {
      expect(() => memoryTable(name)).toThrow(ConfigError);
    },
  );
});
