import { describe, expect, it } from '@jest/globals';
import { COMMAND_SUMMARIES } from '../command-manifest.js';
import { readPackageInfo } from './package-info.js';
import { renderRootHelp } from './root-help.js';

describe('root help (fast path)', () => {
  it('lists every command of the manifest with its arguments and [options]', () => {
    const help = renderRootHelp('9.9.9');
    expect(help).toContain('Usage: toolkit [options] [command]');
    expect(help).toContain('-V, --version');
    for (const command of COMMAND_SUMMARIES) {
      const term = [command.name, '[options]', command.arguments].filter(Boolean).join(' ');
      expect(help).toContain(`  ${term}`);
    }
    expect(help).not.toContain('--any');
  });

  it("reads toolkit's own package.json", () => {
    expect(readPackageInfo()).toMatchObject({
      name: 'toolkit',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });
});
