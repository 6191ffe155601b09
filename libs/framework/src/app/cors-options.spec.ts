import { describe, expect, it } from '@jest/globals';
import { corsOptions } from './cors-options.js';

describe('corsOptions', () => {
  it('exposes X-Stream-Id with `cors: true`', () => {
    expect(corsOptions(true)).toEqual({ exposedHeaders: ['X-Stream-Id'] });
  });

  it('keeps the options and the exposed headers given, as a list or a comma list', () => {
    expect(corsOptions({ origin: 'https://a.test', exposedHeaders: ['X-One'] })).toEqual({
      origin: 'https://a.test',
      exposedHeaders: ['X-One', 'X-Stream-Id'],
    });
    expect(corsOptions({ exposedHeaders: 'X-One, X-Two' }).exposedHeaders).toEqual([
      'X-One',
      'X-Two',
      'X-Stream-Id',
    ]);
  });

  it('does not repeat X-Stream-Id, whatever its case', () => {
    expect(corsOptions({ exposedHeaders: ['x-stream-id'] }).exposedHeaders).toEqual([
      'x-stream-id',
    ]);
  });
});
