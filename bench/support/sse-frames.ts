/**
 * Counts the events in an SSE body: blank-line-separated frames that carry a `data:` line.
 * Comments (`: ping`), Nest's leading blank line and frames holding only `id:` or `event:`
 * lines are not events. Works for toolkit's frames (`event:` + `data:`) and Nest's (`id:` +
 * `data:`) alike.
 */
export function countSseEvents(body: string): number {
  return body
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.split(/\r?\n/).some((line) => line.startsWith('data:'))).length;
}
