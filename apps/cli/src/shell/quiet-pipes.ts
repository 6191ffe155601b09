/**
 * Makes a closed pipe on stdout or stderr harmless: `toolkit new my-bot | head` stops printing
 * once `head` has enough, instead of crashing with an EPIPE stack trace, and the command still
 * finishes its work. Other stream errors are rethrown.
 *
 * @example
 * quietPipes();
 */
export function quietPipes(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      // Nobody reads any more: drop whatever else the command prints.
      stream.write = () => true;
    });
  }
}
