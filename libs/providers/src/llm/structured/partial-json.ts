type Parsed = { value: unknown; complete: boolean } | undefined;

/**
 * Parses the start of a JSON text as far as it goes: open objects and arrays are closed, a
 * string cut short keeps what arrived, and a key or literal cut short is left out. Returns
 * `undefined` when nothing usable arrived yet or the text is not JSON at all.
 *
 * @example
 * parsePartialJson('{"city": "Par'); // { city: 'Par' }
 * parsePartialJson('{"tags": ["a", "b"'); // { tags: ['a', 'b'] }
 */
export function parsePartialJson(text: string): unknown {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };

  function string(): Parsed {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') {
        i++;
        return { value: JSON.parse(text.slice(start, i)) as string, complete: true };
      } else i++;
    }
    // Cut short: drop a half escape (`\` or `\u12`), then close the string.
    const raw = text.slice(start).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
    try {
      return { value: JSON.parse(`${raw}"`) as string, complete: false };
    } catch {
      return undefined;
    }
  }

  function scalar(): Parsed {
    const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (!match) return undefined;
    const end = i + match[0].length;
    // A number at the very end may still grow; keep it, it is valid so far.
    const complete = end < text.length;
    i = end;
    return { value: JSON.parse(match[0]) as unknown, complete };
  }

  function object(): Parsed {
    i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      skip();
      if (i >= text.length) return { value: out, complete: false };
      if (text[i] === '}') {
        i++;
        return { value: out, complete: true };
      }
      if (text[i] !== '"') return undefined;
      const key = string();
      if (!key?.complete) return { value: out, complete: false };
      skip();
      if (i >= text.length) return { value: out, complete: false };
      if (text[i] !== ':') return undefined;
      i++;
      skip();
      if (i >= text.length) return { value: out, complete: false };
      const item = value();
      if (item === undefined) return i >= text.length ? { value: out, complete: false } : undefined;
      out[key.value as string] = item.value;
      if (!item.complete) return { value: out, complete: false };
      skip();
      if (text[i] === ',') i++;
    }
  }

  function array(): Parsed {
    i++;
    const out: unknown[] = [];
    for (;;) {
      skip();
      if (i >= text.length) return { value: out, complete: false };
      if (text[i] === ']') {
        i++;
        return { value: out, complete: true };
      }
      const item = value();
      if (item === undefined) return i >= text.length ? { value: out, complete: false } : undefined;
      out.push(item.value);
      if (!item.complete) return { value: out, complete: false };
      skip();
      if (text[i] === ',') i++;
    }
  }

  function value(): Parsed {
    skip();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    const before = i;
    const parsed = scalar();
    if (parsed === undefined && /^[-\d.eE+truefalsn]*$/.test(text.slice(before))) i = text.length;
    return parsed;
  }

  return value()?.value;
}
