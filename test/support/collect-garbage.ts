import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, so a heap measurement counts what is retained, not garbage a busy
 * machine has not collected yet (jest runs without `--expose-gc`; V8 lets a test turn it on).
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
