import { describe, expect, it } from '@jest/globals';
import { backendAddress, errorReason } from './backend-address.js';

describe('backendAddress', () => {
  it('keeps host, port and database but never credentials', () => {
    expect(backendAddress('redis://:s3cret@cache.internal:6380/2')).toBe('cache.internal:6380/2');
    expect(backendAddress('postgres://app:pw@db:5432/main')).toBe('db:5432/main');
    expect(backendAddress('redis://127.0.0.1:6379')).toBe('127.0.0.1:6379');
  });

  it('says nothing about a URL it cannot parse', () => {
    expect(backendAddress('s3cret')).toBe('an unparseable URL');
  });
});

describe('errorReason', () => {
  it('prefers a system error code', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(errorReason(error, 'redis://x')).toBe('ECONNREFUSED');
  });

  it('removes the password from a message', () => {
    const error = new Error('password authentication failed: p@ss! rejected');
    expect(errorReason(error, 'postgres://u:p%40ss!@h/db')).toBe(
      'password authentication failed: *** rejected',
    );
  });
});
