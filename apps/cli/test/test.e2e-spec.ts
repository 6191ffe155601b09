import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assertCliBuilt, mapLimit, runCli, type CliResult } from './support/cli-process.js';
import { createTempProject, type TempProject } from './support/temp-project.js';

const SOURCE = `function sum(a, b) {
  return a + b;
}
function neverCalled(x) {
  return x * 2;
}
module.exports = { sum, neverCalled };
`;
const PASSING = `const { sum } = require('../sum');
test('adds two numbers', () => {
  expect(sum(1, 2)).toBe(3);
});
`;
const FAILING = `test('is wrong on purpose', () => {
  expect(1 + 1).toBe(3);
});
`;

describe('toolkit test', () => {
  let passing: TempProject;
  let failing: TempProject;
  let bare: TempProject;
  let esm: TempProject;
  let mixed: TempProject;

  beforeAll(() => {
    assertCliBuilt();
    passing = createTempProject(
      { 'package.json': '{"name":"p"}', 'sum.js': SOURCE, 'tests/sum.test.js': PASSING },
      ['jest'],
    );
    failing = createTempProject({ 'package.json': '{"name":"f"}', 'tests/bad.test.js': FAILING }, [
      'jest',
    ]);
    bare = createTempProject({ 'package.json': '{"name":"b"}', 'tests/sum.test.js': PASSING });
    esm = createTempProject(
      {
        'package.json': '{"name":"e","type":"module"}',
        'sum.js': 'export const sum = (a, b) => a + b;\n',
        'tests/sum.test.js':
          "import { sum } from '../sum.js';\ntest('adds in ESM', () => expect(sum(2, 2)).toBe(4));\n",
      },
      ['jest'],
    );
    mixed = createTempProject(
      {
        'package.json': '{"name":"m"}',
        'sum.js': SOURCE,
        'tests/sum.test.js': PASSING,
        'tests/bad.test.js': FAILING,
      },
      ['jest'],
    );
  });
  afterAll(() => [passing, failing, bare, esm, mixed].forEach((project) => project.cleanup()));

  let runs: CliResult[];
  beforeAll(async () => {
    runs = await mapLimit(
      [
        [passing, []],
        [passing, ['--no-coverage', '-v']],
        [passing, ['--coverage', '--verbose']],
        [failing, ['--no-coverage']],
        [bare, []],
        [esm, ['--no-coverage']],
        [mixed, ['tests/sum.test.js', '--no-coverage', '--bail']],
        [mixed, ['--no-coverage', '--testNamePattern', 'adds two']],
        [mixed, ['--no-coverage']],
        [mixed, ['tests/sum.test.js']],
        [mixed, ['tests/nope.test.js']],
      ] as Array<[TempProject, string[]]>,
      3,
      ([project, args]) => runCli(['test', ...args], { cwd: project.dir, timeoutMs: 60_000 }),
    );
  }, 120_000);

  it('runs jest with a per-file text coverage report by default and exits 0', () => {
    const [result] = runs;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Running: jest --coverage --coverageReporters=text');
    expect(result.stdout).toMatch(/% Stmts \| % Branch \| % Funcs \| % Lines \| Uncovered Line #s/);
    expect(result.stdout).toMatch(/sum\.js +\| +\d+/);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
  });

  it('--no-coverage runs plain jest; -v adds --verbose (test names listed)', () => {
    const result = runs[1];
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Running: jest --verbose');
    expect(result.stdout).not.toContain('% Stmts');
    expect(result.stderr).toMatch(/✓ adds two numbers/);
  });

  it('--coverage --verbose combines both', () => {
    const result = runs[2];
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Running: jest --coverage --coverageReporters=text --verbose');
    expect(result.stdout).toContain('% Stmts');
    expect(result.stderr).toMatch(/✓ adds two numbers/);
  });

  it("returns jest's exit code when a test fails", () => {
    const result = runs[3];
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is wrong on purpose');
  });

  it('exits 1 saying jest was not found when the project does not have it', () => {
    const result = runs[4];
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The test runner jest was not found in this project');
    expect(result.stderr).toContain('npm install --save-dev jest');
  });

  it('runs the ES-module tests of a "type": "module" project', () => {
    const result = runs[5];
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
  });

  it('passes test paths and jest options it does not know to jest', () => {
    const [onePath, namePattern, all] = runs.slice(6);
    expect(onePath.code).toBe(0);
    expect(onePath.stdout).toContain('Running: jest tests/sum.test.js --bail');
    expect(onePath.stderr).toContain('Tests:       1 passed, 1 total');
    expect(namePattern.code).toBe(0);
    expect(namePattern.stderr).toMatch(/Tests: +1 skipped, 1 passed, 2 total/);
    // Without a path, every test runs and the failing one fails the run.
    expect(all.code).toBe(1);
    expect(all.stderr).toContain('is wrong on purpose');
  });

  it('runs only the given paths with coverage on (the default), and fails when none matches', () => {
    const [withCoverage, missing] = runs.slice(9);
    expect(withCoverage.stdout).toContain(
      'Running: jest tests/sum.test.js --coverage --coverageReporters=text',
    );
    expect(withCoverage.stderr).toContain('Tests:       1 passed, 1 total');
    expect(withCoverage.stderr).not.toContain('is wrong on purpose');
    expect(withCoverage.stdout).toContain('% Stmts');
    expect(withCoverage.code).toBe(0);
    // A path that matches no test is jest's "No tests found", exit 1: nothing else runs.
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toMatch(/No tests found/);
    expect(missing.stderr).not.toContain('is wrong on purpose');
  });
});
