import { ToolkitError } from '../../../providers/src/internal.js';

/** Which part of the budget a file exceeded. */
export type BudgetKind = 'time' | 'memory';

/**
 * 422: parsing a file took longer or more memory than the ingestion budget allows. It was
 * stopped; nothing of it was stored. The message names the limit and the setting that raises it;
 * the body says which (`{ "budget": "time", "limit": "60s" }`).
 */
export class IngestionBudgetError extends ToolkitError {
  constructor(
    readonly budget: BudgetKind,
    name: string,
    limit: string,
  ) {
    const setting = budget === 'time' ? 'rag.ingest_timeout' : 'rag.ingest_memory';
    const what =
      budget === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`;
    super(
      `"${name}" could not be indexed: parsing it ${what}, the limit per file (${setting}); ` +
        'nothing of it was stored',
      // Retryable: on a less busy machine, or with a larger budget, the same file may pass.
      { statusCode: 422, isRetryable: true, body: { budget, limit } },
    );
  }
}
