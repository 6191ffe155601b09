import { describe, expect, it } from '@jest/globals';
import { DatabaseError } from 'pg';
import { ToolkitError } from '../errors/toolkit.error.js';
import { postgresFailure, type PostgresFailureNaming } from './postgres-failure.js';

const URL = 'postgres://app:s3cret@db.internal:5432/main';
const dbError = (code: string, message: string) =>
  Object.assign(new DatabaseError(message, message.length, 'error'), { code });

/** A backend naming its failures as the pgvector store does (503s marked for the test). */
const naming: PostgresFailureNaming = {
  label: 'vectors',
  unavailable: (detail, cause) => new ToolkitError(`down ${detail}`, { statusCode: 503, cause }),
  hint: (error) => (error.code === '0A000' ? ' (install the extension)' : ''),
};

describe('postgresFailure', () => {
  it("gives an outage to the backend's unavailable error, naming the server but not the password", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const mapped = postgresFailure(refused, URL, naming);
    expect(mapped.statusCode).toBe(503);
    expect(mapped.message).toBe('down at db.internal:5432/main (ECONNREFUSED)');
    const login = postgresFailure(dbError('28P01', 'password s3cret rejected'), URL, naming);
    expect(login.message).toBe('down at db.internal:5432/main (password *** rejected)');
  });

  it("makes bad SQL a 500 with the backend's label and its hint", () => {
    const missing = postgresFailure(dbError('0A000', 'type "vector" does not exist'), URL, naming);
    expect(missing.statusCode).toBe(500);
    expect(missing.message).toBe(
      'vectors query failed (SQLSTATE 0A000): type "vector" does not exist (install the extension)',
    );
    expect(postgresFailure(dbError('42P01', 'no table'), URL, naming).message).toBe(
      'vectors query failed (SQLSTATE 42P01): no table',
    );
  });
});
