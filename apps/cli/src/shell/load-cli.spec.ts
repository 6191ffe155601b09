import { describe, expect, it } from '@jest/globals';
import { loadCli, type CliModuleExports } from './load-cli.js';

const missing = (name: string) =>
  Object.assign(new Error(`Cannot find package '${name}' imported from /app/dist/cli.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });

describe('loadCli', () => {
  it('says how to install nest-commander when a production install left it out', async () => {
    const printed: string[] = [];
    const cli = await loadCli(
      'dev',
      () => Promise.reject(missing('nest-commander')),
      (text) => {
        printed.push(text);
      },
    );
    expect(cli).toBeUndefined();
    expect(printed.join('')).toBe(
      'Error: toolkit dev needs nest-commander, a development dependency of the project, and it is not installed\n' +
        'Run: npm install --save-dev nest-commander (only `toolkit start` runs without it)\n',
    );
  });

  it('lets any other failure through, a missing package included', async () => {
    const noop = (): void => undefined;
    await expect(loadCli('dev', () => Promise.reject(missing('commander')), noop)).rejects.toThrow(
      "Cannot find package 'commander'",
    );
    await expect(
      loadCli('dev', () => Promise.reject(new SyntaxError('bad')), noop),
    ).rejects.toThrow('bad');
  });

  it('returns the CLI module when it loads', async () => {
    const module = { runCli: async () => 0 } as unknown as CliModuleExports;
    expect(await loadCli('dev', async () => module)).toBe(module);
  });
});
