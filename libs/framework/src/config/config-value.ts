import type { KeySpec } from './config.schema.js';

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
};

const DURATION_UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * Checks one raw value against its spec. `fromText` is true for environment variables, whose
 * values are always strings and are read as the key's type. Returns the value or a problem.
 */
export function coerceValue(
  spec: KeySpec,
  raw: unknown,
  fromText: boolean,
): { value: string | number | boolean } | { problem: string } {
  const shown = JSON.stringify(raw);
  switch (spec.kind) {
    case 'string': {
      if (typeof raw !== 'string') return { problem: `must be a string (got ${shown})` };
      if (spec.choices && !spec.choices.includes(raw)) {
        return { problem: `must be one of ${spec.choices.join(', ')} (got ${shown})` };
      }
      return { value: raw };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw };
      if (fromText && typeof raw === 'string') {
        const text = raw.trim().toLowerCase();
        if (['true', '1', 'yes', 'on'].includes(text)) return { value: true };
        if (['false', '0', 'no', 'off', ''].includes(text)) return { value: false };
      }
      return { problem: `must be true or false (got ${shown})` };
    }
    case 'integer':
    case 'number': {
      const num =
        typeof raw === 'number'
          ? raw
          : fromText && typeof raw === 'string' && raw.trim() !== ''
            ? Number(raw)
            : NaN;
      const isInt = spec.kind === 'integer';
      if (!Number.isFinite(num) || (isInt && !Number.isInteger(num))) {
        return { problem: `must be ${isInt ? 'an integer' : 'a number'} (got ${shown})` };
      }
      return checkRange(spec, num, shown);
    }
    case 'bytes': {
      if (typeof raw === 'number' && Number.isInteger(raw)) return checkRange(spec, raw, shown);
      const match =
        typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw) : null;
      const unit = match ? UNITS[(match[2] || 'b').toLowerCase()] : undefined;
      if (!match || unit === undefined) {
        return { problem: `must be a size such as 1048576, "512kb" or "2mb" (got ${shown})` };
      }
      return checkRange(spec, Math.floor(Number(match[1]) * unit), shown);
    }
    case 'duration': {
      if (typeof raw === 'number' && Number.isFinite(raw)) return checkRange(spec, raw, shown);
      const match =
        typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(raw) : null;
      if (!match) {
        return {
          problem: `must be a duration in seconds such as 90, "500ms", "30m" or "24h" (got ${shown})`,
        };
      }
      const unit = DURATION_UNITS[(match[2] ?? 's').toLowerCase()] ?? 1;
      return checkRange(spec, Number(match[1]) * unit, shown);
    }
  }
}

function checkRange(
  spec: KeySpec,
  num: number,
  shown: string,
): { value: number } | { problem: string } {
  if (spec.min !== undefined && num < spec.min)
    return { problem: `must be at least ${spec.min} (got ${shown})` };
  if (spec.max !== undefined && num > spec.max)
    return { problem: `must be at most ${spec.max} (got ${shown})` };
  return { value: num };
}
