import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Writes a file so that readers (and a crash) see either the old content or the new one, never
 * a mix: the bytes go to a temporary file beside it, are flushed to disk (unless `sync` is
 * false, for files that are only a cache), and the temporary file is renamed over the target.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | string,
  options: { sync?: boolean } = {},
): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(data);
    if (options.sync ?? true) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
