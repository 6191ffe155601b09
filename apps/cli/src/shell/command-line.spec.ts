import { describe, expect, it } from '@jest/globals';
import { COMMAND_SUMMARIES } from '../command-manifest.js';
import { buildCommandLine, parseCommandLine, renderRootHelp } from './command-line.js';
import { readPackageInfo } from './package-info.js';

const argv = (...args: string[]) => ['node', 'toolkit', ...args];

describe('fast command line (from the command manifest)', () => {
  it('lists every command of the manifest with its arguments and [options] in the root help', () => {
    const help = renderRootHelp('9.9.9');
    expect(help).toContain('Usage: toolkit [options] [command]');
    expect(help).toContain('-V, --version');
    for (const command of COMMAND_SUMMARIES) {
      const term = [command.name, '[options]', command.arguments].filter(Boolean).join(' ');
      expect(help).toContain(`  ${term}`);
    }
  });

  it('lists every option of every command in its --help', () => {
    const program = buildCommandLine('9.9.9', () => undefined);
    for (const summary of COMMAND_SUMMARIES) {
      const command = program.commands.find((candidate) => candidate.name() === summary.name);
      const help = command?.helpInformation() ?? '';
      expect(summary.optionSummaries.length).toBeGreaterThan(0);
      for (const option of summary.optionSummaries) expect(help).toContain(option.flags);
      expect(help).toContain(summary.longHelpOnly ? '  --help ' : '-h, --help');
    }
  });

  it('returns the command to run with its parsed arguments and options', () => {
    expect(parseCommandLine(argv('new', 'my-bot', '-t', 'rag'), '1.0.0')).toEqual({
      kind: 'run',
      command: 'new',
      args: ['my-bot'],
      options: { template: 'rag', directory: '.', platform: 'express' },
    });
    expect(parseCommandLine(argv('new', 'my-bot', '--platform', 'fastify'), '1.0.0')).toMatchObject(
      { options: { platform: 'fastify' } },
    );
    expect(parseCommandLine(argv('new', 'my-bot', '--platform', 'koa'), '1.0.0')).toMatchObject({
      kind: 'exit',
      exitCode: 2,
    });
    expect(parseCommandLine(argv('dev', '--port', '9000'), '1.0.0')).toMatchObject({
      kind: 'run',
      command: 'dev',
    });
  });

  it("reads toolkit's own package.json", () => {
    expect(readPackageInfo()).toMatchObject({
      name: 'toolkit',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });
});
