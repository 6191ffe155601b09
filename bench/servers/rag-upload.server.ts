// The rag template's routes (templates/rag: `RagController` + `RagModule`) with `/health`, on the
// offline model and embedder, over a fresh documents folder (removed on exit). The parse budget is
// raised (`ingest_timeout` 600 s) so the heaviest real document is indexed, not refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HealthController } from 'toolkit';
import { RagModule } from 'toolkit/rag';
import { RagController } from '../../templates/rag/src/rag.controller.js';
import { announce } from '../support/announce.js';

const root = mkdtempSync(join(tmpdir(), 'tk-bench-rag-upload-'));
const app = new App({
  title: 'rag-upload',
  controllers: [HealthController, RagController],
  imports: [RagModule.forRoot()],
  logger: false,
  cwd: root,
  config: {
    llm: { default_model: 'echo' },
    rag: {
      documents_dir: join(root, 'docs/documents'),
      index_dir: join(root, '.toolkit/index'),
      ingest_timeout: 600,
    },
  },
});
announce(await app.run(), async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});
