import { Injectable } from '@nestjs/common';
import { createInterface } from 'node:readline/promises';

/**
 * Asks the user questions on the terminal. `canPrompt` is false when stdin is not a terminal
 * (CI, pipes): commands then ask for the value as an option instead of waiting forever.
 *
 * @example
 * const name = prompts.canPrompt ? await prompts.ask('App name: ') : undefined;
 */
@Injectable()
export class PromptService {
  /** True when a person can answer (stdin is a TTY). */
  get canPrompt(): boolean {
    return process.stdin.isTTY === true;
  }

  /** Asks one question; resolves with the trimmed answer ('' when the user just pressed Enter). */
  async ask(question: string): Promise<string> {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return (await rl.question(question)).trim();
    } finally {
      rl.close();
    }
  }
}
