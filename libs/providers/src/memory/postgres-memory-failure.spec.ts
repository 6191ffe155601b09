import { describe, expect, it } from '@jest/globals';
import { DatabaseError } from 'pg';
import { ToolkitError } from '../errors/toolkit.error.js';
import { MemoryUnavailableError } from './memory-unavailable.error.js';
import { postgresMemoryFailure } from './postgres-memory-failure.js';

const URL = 'postgres://app:pw@db.internal:5432/main';
const dbError = (code: string, message: string) =>
  Object.assign(new DatabaseError(message, message.length, 'error'), { code });

describe('postgresMemoryFailure', () => {
  it('maps connection-class SQLSTATEs and socket errors to a 503', () => {
    for (const error of [
      dbError('57P01', 'terminating connection due to administrator command'),
      dbError('28P01', 'password authentication failed for user "app"'),
      dbError('53300', 'sorry, too many clients already'),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      const mapped = postgresMemoryFailure(error, URL);
      expect(mapped).toBeInstanceOf(MemoryUnavailableError);
      expect(mapped.statusCode).toBe(503);
      expect(mapped.message).toMatch(
        /^Memory backend unavailable: postgres at db\.internal:5432\/main \(/,
      );
    }
  });

  it('maps an error the SQL engine raised for a statement to a 500', () => {
    const mapped = postgresMemoryFailure(dbError('42P01', 'relation "x" does not exist'), URL);
    expect(mapped).not.toBeInstanceOf(MemoryUnavailableError);
    expect(mapped.statusCode).toBe(500);
    expect(mapped.message).toBe(
      'PostgreSQL memory backend query failed (SQLSTATE 42P01): relation "x" does not exist',
    );
  });

  it('passes toolkit errors through unchanged', () => {
    const original = new ToolkitError('already mapped', { statusCode: 503 });
    expect(postgresMemoryFailure(original, URL)).toBe(original);
  });
});
