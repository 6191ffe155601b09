import { Injectable } from '@nestjs/common';

type Tone = 'bold' | 'dim' | 'green' | 'yellow' | 'red' | 'cyan';
const CODES: Record<Tone, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  green: [32, 39],
  yellow: [33, 39],
  red: [31, 39],
  cyan: [36, 39],
};

/** One `label: value` row of a {@link TerminalService.table}. */
export type Row = readonly [label: string, value: string];

/**
 * Everything the CLI prints goes through here: results on stdout, warnings and errors on stderr,
 * colour only on a terminal and never with `NO_COLOR`. Commands never write to the streams.
 *
 * @example
 * terminal.table([['URL', 'http://127.0.0.1:8000'], ['Reload', 'on']]);
 */
@Injectable()
export class TerminalService {
  protected readonly out: NodeJS.WriteStream = process.stdout;
  protected readonly err: NodeJS.WriteStream = process.stderr;

  /** A plain line on stdout. */
  info(text = ''): void {
    this.out.write(`${text}\n`);
  }

  /** A heading line on stdout. */
  heading(text: string): void {
    this.info(this.paint(this.out, 'bold', text));
  }

  /** A success line on stdout. */
  success(text: string): void {
    this.info(this.paint(this.out, 'green', text));
  }

  /** `Warning: ...` on stderr. */
  warn(text: string): void {
    this.err.write(`${this.paint(this.err, 'yellow', 'Warning:')} ${text}\n`);
  }

  /** `Error: ...` on stderr, with an optional next step under it. */
  error(text: string, hint?: string): void {
    this.err.write(`${this.paint(this.err, 'red', 'Error:')} ${text}\n`);
    if (hint) this.err.write(`${hint}\n`);
  }

  /** `error: ...` on stderr for invalid usage, worded like commander's own usage errors. */
  usageError(text: string, hint?: string): void {
    this.err.write(`error: ${text}\n`);
    if (hint) this.err.write(`${hint}\n`);
  }

  /** Aligned `label: value` rows on stdout, indented by two spaces. */
  table(rows: readonly Row[]): void {
    const width = Math.max(...rows.map(([label]) => label.length)) + 1;
    for (const [label, value] of rows) {
      this.info(`  ${this.paint(this.out, 'dim', `${label}:`.padEnd(width))} ${value}`);
    }
  }

  /** True when stderr is a terminal, where {@link status} redraws one line in place. */
  get interactive(): boolean {
    return this.err.isTTY === true;
  }

  /**
   * A progress line on stderr: redrawn in place on a terminal (end it with {@link endStatus}),
   * a plain line otherwise.
   */
  status(text: string): void {
    if (this.interactive) this.err.write(`\r\u001b[2K${text}`);
    else this.err.write(`${text}\n`);
  }

  /** Ends a line {@link status} redraws, so what follows starts on a fresh line. */
  endStatus(): void {
    if (this.interactive) this.err.write('\n');
  }

  /** A shell command the user may copy, indented on its own line. */
  command(text: string): void {
    this.info(`    ${this.paint(this.out, 'cyan', text)}`);
  }

  private paint(stream: NodeJS.WriteStream, tone: Tone, text: string): string {
    if (!stream.isTTY || process.env.NO_COLOR !== undefined) return text;
    const [open, close] = CODES[tone];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  }
}
