// RAG's embeddings read the environment the configuration was loaded from: the key and base URL
// in a project's `.env` reach the embeddings call, with neither set in `process.env`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openProjectIndex } from 'toolkit/rag';
import { loadConfig } from '../../../framework/src/config/config.loader.js';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../../providers/test/support/fake-llm.server.js';

let fake: FakeLlmServer;
let root: string;

beforeAll(async () => {
  fake = await startFakeLlmServer({ embeddingDimensions: 1536 });
  root = mkdtempSync(join(tmpdir(), 'tk-rag-env-'));
  mkdirSync(join(root, 'docs/documents'), { recursive: true });
  writeFileSync(join(root, 'docs/documents/tea.txt'), 'Green tea is steeped at 80 degrees.');
  writeFileSync(join(root, 'toolkit.yaml'), 'rag:\n  embeddings: auto\n');
  writeFileSync(
    join(root, '.env'),
    `OPENAI_API_KEY=sk-from-dotenv\nOPENAI_BASE_URL=${fake.openaiBaseURL}\n`,
  );
});

afterAll(async () => {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
});

describe("RAG embeddings and the configuration's environment", () => {
  it("embeds with the key and base URL of the project's .env, not process.env", async () => {
    const config = loadConfig({ cwd: root, env: {} });
    const project = await openProjectIndex(config, { cwd: root });
    try {
      expect(project.embedder.id).toBe('text-embedding-3-small');
      await project.index.indexFolder();
      const embeddings = fake.requests.filter((r) => r.api === 'openai-embeddings');
      expect(embeddings.length).toBeGreaterThan(0);
      expect(embeddings[0].headers.authorization).toBe('Bearer sk-from-dotenv');
    } finally {
      await project.close();
    }
  });

  it('stays offline when that environment has no key, whatever process.env holds', async () => {
    rmSync(join(root, '.env'));
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-process-env';
    try {
      const project = await openProjectIndex(loadConfig({ cwd: root, env: {} }), { cwd: root });
      expect(project.embedder.id).not.toBe('text-embedding-3-small');
      await project.close();
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });
});
