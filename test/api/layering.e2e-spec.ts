// The libraries depend one way: providers ← framework ← testing. `libs/providers` (sources,
// tests, fixtures) stands alone, so `toolkit/providers` and `toolkit/rag` work without Nest;
// the framework's sources never need the test utilities (its tests may use them).
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forbiddenImports } from './support/layers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('layering', () => {
  it('nothing under libs/providers imports libs/framework or libs/testing', () => {
    expect(forbiddenImports(ROOT, 'libs/providers', ['framework', 'testing'])).toEqual([]);
  });

  it('nothing in libs/framework/src imports libs/testing', () => {
    expect(forbiddenImports(ROOT, 'libs/framework/src', ['testing'])).toEqual([]);
  });
});
