import { parseMcpServers } from '../../../providers/src/internal.js';
import type { KeySpec } from './config.schema.js';

/** A checked value, or a problem (with the sub-key it concerns inside a mapping). */
export type CoercedValue =
  | { value: string | number | boolean | null | Record<string, unknown> }
  | { problem: string; path?: string };

const USD = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/**
 * `llm.prices` (model name or prefix → `{ input, output }` USD per 1M tokens) and `llm.budget`
 * (`{ per_user_usd_per_day }`); from the environment they are JSON text.
 */
function coerceMapping(kind: 'prices' | 'budget', raw: unknown, fromText: boolean): CoercedValue {
  let value = raw;
  if (fromText && typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return { problem: `must be a JSON object (got ${JSON.stringify(raw)})` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const want =
      kind === 'prices' ? 'model names to { input, output }' : 'per_user_usd_per_day to a number';
    return { problem: `must be a mapping of ${want} (got ${JSON.stringify(value)})` };
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (kind === 'budget') {
    for (const [key, v] of entries) {
      if (key !== 'per_user_usd_per_day') {
        return { problem: 'is not a known key (known: per_user_usd_per_day)', path: key };
      }
      if (v !== null && !USD(v)) {
        return {
          problem: `must be a non-negative number of USD (got ${JSON.stringify(v)})`,
          path: key,
        };
      }
    }
    return { value: { per_user_usd_per_day: null, ...(value as Record<string, unknown>) } };
  }
  for (const [model, price] of entries) {
    for (const side of ['input', 'output'] as const) {
      const n =
        typeof price === 'object' && price !== null
          ? (price as Record<string, unknown>)[side]
          : undefined;
      if (!USD(n)) {
        return {
          problem: `must be a non-negative number of USD per 1M tokens (got ${JSON.stringify(n ?? null)})`,
          path: `${model}.${side}`,
        };
      }
    }
  }
  return { value: value as Record<string, unknown> };
}

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
export function coerceValue(spec: KeySpec, raw: unknown, fromText: boolean): CoercedValue {
  const shown = JSON.stringify(raw);
  if (spec.nullable && (raw === null || (fromText && typeof raw === 'string' && !raw.trim()))) {
    return { value: null };
  }
  switch (spec.kind) {
    case 'prices':
    case 'budget':
      return coerceMapping(spec.kind, raw, fromText);
    case 'mcp_servers':
      return parseMcpServers(raw, fromText);
    case 'string': {
      if (typeof raw !== 'string') return { problem: `must be a string (got ${shown})` };
      if (spec.choices && !spec.choices.includes(raw)) {
        return { problem: `must be one of ${spec.choices.join(', ')} (got ${shown})` };
      }
      if (spec.pattern && !spec.pattern.regex.test(raw)) {
        return { problem: `must be ${spec.pattern.says} (got ${shown})` };
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
      const name = (match?.[2] || 'b').toLowerCase();
      // Own entries only: "5constructor" is not a size.
      const unit = match && Object.hasOwn(UNITS, name) ? UNITS[name] : undefined;
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
