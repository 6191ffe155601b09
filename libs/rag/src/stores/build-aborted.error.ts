/** Stops an index build of a local store that was closed meanwhile; the build drops it. */
export class BuildAbortedError extends Error {}
