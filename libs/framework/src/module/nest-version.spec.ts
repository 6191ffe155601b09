import { describe, expect, it } from '@jest/globals';
import { checkNestVersion, installedNestVersion, satisfiesCaretRange } from './nest-version.js';
import { SUPPORTED_NEST_RANGE } from './supported-nest.js';

describe('satisfiesCaretRange', () => {
  it.each([
    ['11.1.0', true],
    ['11.1.9', true],
    ['11.4.2', true],
    ['12.0.0', true],
    ['12.5.1', true],
    ['11.0.17', false],
    ['10.4.15', false],
    ['13.0.0', false],
    ['12.0.0-rc.1', false],
    ['not a version', false],
  ])('%s in the supported range: %s', (version, inside) => {
    expect(satisfiesCaretRange(version, SUPPORTED_NEST_RANGE)).toBe(inside);
  });

  it('pins the minor version of a 0.x range, as npm does', () => {
    expect(satisfiesCaretRange('0.2.5', '^0.2.1')).toBe(true);
    expect(satisfiesCaretRange('0.3.0', '^0.2.1')).toBe(false);
  });
});

describe('checkNestVersion', () => {
  function recorder(): { lines: string[]; warn(message: string): void } {
    const lines: string[] = [];
    return { lines, warn: (message) => void lines.push(message) };
  }

  it('warns in one line naming the installed and the supported versions', () => {
    const logger = recorder();
    checkNestVersion('10.4.15', logger);
    expect(logger.lines).toEqual([
      'toolkit supports Nest ^11.1.0 || ^12.0.0; this application has @nestjs/core 10.4.15',
    ]);
  });

  it('says nothing for a supported or unreadable version', () => {
    const logger = recorder();
    expect(checkNestVersion('11.1.0', logger)).toBeUndefined();
    expect(checkNestVersion('12.5.1', logger)).toBeUndefined();
    expect(checkNestVersion(undefined, logger)).toBeUndefined();
    expect(logger.lines).toEqual([]);
  });

  it("reads this repository's own @nestjs/core, which is supported", () => {
    const installed = installedNestVersion();
    expect(installed).toMatch(/^\d+\.\d+\.\d+/);
    expect(satisfiesCaretRange(installed ?? '', SUPPORTED_NEST_RANGE)).toBe(true);
  });
});
