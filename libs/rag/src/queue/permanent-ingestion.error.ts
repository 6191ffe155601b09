/** Why a queued file was not ingested and will not be on a retry: the job fails at once. */
export class PermanentIngestionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentIngestionError';
  }
}
