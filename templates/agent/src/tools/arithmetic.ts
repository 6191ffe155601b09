/** Longest expression the calculator reads. */
export const MAX_EXPRESSION_LENGTH = 500;
const MAX_NESTING = 50;

type Token =
  { kind: 'number'; value: number; at: number } | { kind: 'op'; value: string; at: number };

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < expression.length) {
    const rest = expression.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      at += number[0].length;
      continue;
    }
    const op = rest[0];
    if (!'+-*/%^()'.includes(op)) {
      throw new Error(`unexpected "${op}" at position ${at + 1}; use numbers, + - * / % ^ and ( )`);
    }
    tokens.push({ kind: 'op', value: op, at });
    at += 1;
  }
  return tokens;
}

/**
 * Evaluates arithmetic: decimal numbers, `+ - * / %`, `^` (power, right-associative) and
 * parentheses, with the usual precedence. No names and no `eval`: anything else is an error
 * naming the position, as are division by zero and results that are not finite numbers.
 *
 * @example
 * evaluateArithmetic('2 * (3 + 4) ^ 2'); // 98
 */
export function evaluateArithmetic(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new Error(`the expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  }
  const tokens = tokenize(expression);
  if (tokens.length === 0) throw new Error('the expression is empty');
  let position = 0;
  let depth = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (...ops: string[]): boolean => {
    const token = peek();
    return token?.kind === 'op' && ops.includes(token.value);
  };
  const where = (): string => {
    const token = peek();
    return token ? `"${token.value}" at position ${token.at + 1}` : 'the end';
  };

  const sum = (): number => {
    let value = product();
    while (isOp('+', '-')) {
      const op = tokens[position++].value;
      const right = product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const product = (): number => {
    let value = unary();
    while (isOp('*', '/', '%')) {
      const op = tokens[position++].value;
      const right = unary();
      if (op !== '*' && right === 0) throw new Error('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const unary = (): number => {
    if (isOp('-', '+')) {
      const op = tokens[position++].value;
      const value = unary();
      return op === '-' ? -value : value;
    }
    return power();
  };
  const power = (): number => {
    const base = primary();
    if (!isOp('^')) return base;
    position += 1;
    return base ** unary();
  };
  const primary = (): number => {
    const token = peek();
    if (token?.kind === 'number') {
      position += 1;
      return token.value;
    }
    if (isOp('(')) {
      if (++depth > MAX_NESTING) throw new Error(`more than ${MAX_NESTING} nested parentheses`);
      position += 1;
      const value = sum();
      if (!isOp(')')) throw new Error(`expected ")" but found ${where()}`);
      position += 1;
      depth -= 1;
      return value;
    }
    throw new Error(`expected a number or "(" but found ${where()}`);
  };

  const result = sum();
  if (position < tokens.length) throw new Error(`unexpected ${where()}`);
  if (!Number.isFinite(result)) throw new Error('the result is not a finite number');
  return result;
}
