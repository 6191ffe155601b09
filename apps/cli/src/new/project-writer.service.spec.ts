import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../errors/cli.errors.js';
import { DirectoryExistsError } from './new.errors.js';
import { ProjectWriterService } from './project-writer.service.js';
import type { GeneratedFile } from './template-renderer.service.js';

const file = (path: string, content: string, mode = 0o644): GeneratedFile => ({
  path,
  content: Buffer.from(content),
  mode,
});

describe('ProjectWriterService', () => {
  const writer = new ProjectWriterService();
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'toolkit-writer-'));
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('writes every file with its mode, creating folders, and leaves no staging folder', () => {
    const target = join(parent, 'nested', 'my-app');
    writer.write(target, [
      file('app.ts', 'export const app = 1;\n'),
      file('src/deep/x.ts', 'x'),
      file('bin/run', '#!/bin/sh\n', 0o755),
    ]);
    expect(readFileSync(join(target, 'src/deep/x.ts'), 'utf8')).toBe('x');
    expect(statSync(join(target, 'bin/run')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(parent, 'nested'))).toEqual(['my-app']);
  });

  it('gives the project folder 0755 and files 0644, with the umask applied', () => {
    const previous = process.umask(0o022);
    try {
      const target = join(parent, 'open');
      writer.write(target, [file('app.ts', 'x'), file('src/a.ts', 'y')]);
      expect(statSync(target).mode & 0o777).toBe(0o755);
      expect(statSync(join(target, 'src')).mode & 0o777).toBe(0o755);
      expect(statSync(join(target, 'app.ts')).mode & 0o777).toBe(0o644);
      process.umask(0o077);
      const private_ = join(parent, 'private');
      writer.write(private_, [file('app.ts', 'x'), file('bin/run', '#!/bin/sh\n', 0o755)]);
      expect(statSync(private_).mode & 0o777).toBe(0o700);
      expect(statSync(join(private_, 'app.ts')).mode & 0o777).toBe(0o600);
      expect(statSync(join(private_, 'bin/run')).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it('creates nothing when a file cannot be written part-way', () => {
    const target = join(parent, 'my-app');
    // "a" is a file, so "a/b" cannot be created after it.
    const attempt = () => writer.write(target, [file('a', '1'), file('a/b', '2')]);
    expect(attempt).toThrow(CliError);
    expect(attempt).toThrow(/nothing was created/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('refuses an existing folder or file and leaves it untouched', () => {
    const target = join(parent, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'mine.txt'), 'keep me');
    expect(() => writer.write(target, [file('mine.txt', 'overwritten')])).toThrow(
      DirectoryExistsError,
    );
    expect(readFileSync(join(target, 'mine.txt'), 'utf8')).toBe('keep me');
    writeFileSync(join(parent, 'plain-file'), '');
    expect(() => writer.write(join(parent, 'plain-file'), [])).toThrow(/Directory already exists/);
    expect(readdirSync(parent).sort()).toEqual(['plain-file', 'taken']);
  });

  it('explains when the parent folder cannot be created', () => {
    writeFileSync(join(parent, 'not-a-folder'), '');
    expect(() => writer.write(join(parent, 'not-a-folder', 'app'), [file('a', '1')])).toThrow(
      /Cannot create a project in .*not-a-folder/,
    );
  });
});
