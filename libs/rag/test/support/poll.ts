/**
 * Waits until `condition` holds, checking every `everyMs`; fails naming `what` after
 * `timeoutMs` (a deadline for a condition, never a timed assertion).
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 30_000, everyMs = 20 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, everyMs));
  }
}
