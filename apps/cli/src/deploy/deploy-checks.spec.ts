import { describe, expect, it } from '@jest/globals';
import { generatedFileCheck, parsePackageJson, projectCheck } from './deploy-checks.js';

describe('deploy checks', () => {
  it('parses only a JSON object as package.json', () => {
    expect(parsePackageJson('{"name":"a"}')).toEqual({ name: 'a' });
    expect(parsePackageJson('[1]')).toBeUndefined();
    expect(parsePackageJson('{oops')).toBeUndefined();
    expect(parsePackageJson(undefined)).toBeUndefined();
  });

  it('calls a folder a toolkit project when package.json depends on toolkit', () => {
    const facts = { toolkitName: 'toolkit', hasAppEntry: true };
    expect(projectCheck({ ...facts, packageJsonText: undefined }).status).toBe('fail');
    expect(projectCheck({ ...facts, packageJsonText: '{oops' }).detail).toContain('not a valid');
    expect(projectCheck({ ...facts, packageJsonText: '{"name":"a"}' }).fix).toContain(
      'npm install toolkit',
    );
    const deps = '{"name":"my-bot","dependencies":{"toolkit":"^0.1.0"}}';
    expect(projectCheck({ ...facts, packageJsonText: deps })).toEqual({
      name: 'project',
      status: 'ok',
      detail: 'toolkit project my-bot',
    });
    expect(projectCheck({ ...facts, hasAppEntry: false, packageJsonText: deps }).status).toBe(
      'warn',
    );
  });

  it('says whether a generated file would be created or is kept', () => {
    expect(generatedFileCheck('Procfile', false).detail).toBe('would create Procfile');
    expect(generatedFileCheck('Procfile', true).detail).toMatch(/^Procfile exists and is kept/);
  });
});
