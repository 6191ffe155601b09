// The libraries depend one way: providers ← framework ← rag ← testing. `libs/providers`
// (sources, tests, fixtures) stands alone, so `toolkit/providers` works without Nest; `toolkit`
// never loads RAG (its document parsers stay out of every app that does not use them); the
// sources of neither need the test utilities (their tests may use them).
import { describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { forbiddenImports } from './support/layers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('layering', () => {
  it('nothing under libs/providers imports libs/framework, libs/rag or libs/testing', () => {
    expect(forbiddenImports(ROOT, 'libs/providers', ['framework', 'rag', 'testing'])).toEqual([]);
  });

  it('nothing in libs/framework/src imports libs/rag or libs/testing', () => {
    expect(forbiddenImports(ROOT, 'libs/framework/src', ['rag', 'testing'])).toEqual([]);
  });

  it('nothing in libs/rag/src imports libs/testing', () => {
    expect(forbiddenImports(ROOT, 'libs/rag/src', ['testing'])).toEqual([]);
  });
});
