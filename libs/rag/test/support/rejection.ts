import { ToolkitError } from '../../../providers/src/errors/toolkit.error.js';

/** The `ToolkitError` a promise rejects with; fails when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<ToolkitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolkitError.isInstance(error))
    throw new Error(`expected a ToolkitError, got ${String(error)}`);
  return error;
}
