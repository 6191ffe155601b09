/** A file that changed during every read: there is no one version of it to index. */
export class FileChangedError extends Error {
  constructor(
    readonly path: string,
    readonly attempts: number,
  ) {
    super(
      `changed while it was being read (${attempts} attempts); ingest it again once it is written`,
    );
    this.name = 'FileChangedError';
  }
}
