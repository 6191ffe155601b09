import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../errors/cli.errors.js';

/** True while a process with that pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims a local store for one `toolkit worker` or in-process `toolkit ingest` (two processes
 * would overwrite each other's files): writes `<indexDir>/writer.pid`, refusing with a one-line
 * error while another live process holds it. Returns the release function.
 */
export function lockLocalStore(indexDir: string): () => void {
  mkdirSync(indexDir, { recursive: true });
  const file = join(indexDir, 'writer.pid');
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
      throw new CliError(
        `another toolkit process (pid ${holder}) is writing the local store; use rag.store: pgvector for several workers`,
      );
    }
    rmSync(file, { force: true }); // left by a worker that died
  }
}
