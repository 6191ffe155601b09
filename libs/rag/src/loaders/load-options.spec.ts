import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../providers/src/errors/config.error.js';
import { DEFAULT_MAX_INFLATED_BYTES, resolveLoadOptions } from './load-options.js';

describe('resolveLoadOptions', () => {
  it('defaults to 64 MiB, named maxInflatedBytes in messages', () => {
    expect(resolveLoadOptions()).toEqual({
      maxInflatedBytes: DEFAULT_MAX_INFLATED_BYTES,
      limitSetting: 'maxInflatedBytes',
    });
    expect(DEFAULT_MAX_INFLATED_BYTES).toBe(64 * 1024 * 1024);
  });

  it('keeps what the caller sets', () => {
    expect(
      resolveLoadOptions({ maxInflatedBytes: 10, limitSetting: 'rag.max_inflated_bytes' }),
    ).toEqual({
      maxInflatedBytes: 10,
      limitSetting: 'rag.max_inflated_bytes',
    });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxInflatedBytes %p',
    (value) => {
      expect(() => resolveLoadOptions({ maxInflatedBytes: value })).toThrow(ConfigError);
    },
  );
});
