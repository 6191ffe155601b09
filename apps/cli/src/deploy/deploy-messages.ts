import type { WriteOutcome } from '../services/file-writer.service.js';
import type { TerminalService } from '../services/terminal.service.js';

/** Says whether a deployment file was created or an existing one kept. */
export function reportGeneratedFile(
  terminal: TerminalService,
  name: string,
  outcome: WriteOutcome,
): void {
  if (outcome === 'created') terminal.info(`Created ${name}`);
  else terminal.info(`Kept the existing ${name} (toolkit never overwrites it)`);
}

/**
 * Prints how to store each secret with the platform's own mechanism; values are never shown.
 *
 * @example
 * printSecretsHelp(terminal, ['OPENAI_API_KEY'], (name) => `heroku config:set ${name}=<value> --app my-bot`);
 */
export function printSecretsHelp(
  terminal: TerminalService,
  names: readonly string[],
  render: (name: string) => string,
): void {
  terminal.info();
  terminal.info('Set the provider key and other secrets on the platform (never commit .env):');
  for (const name of names) terminal.command(render(name));
}
