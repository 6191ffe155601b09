import { describe, expect, it } from '@jest/globals';
import { ProcessService } from './process.service.js';

describe('ProcessService.capture', () => {
  const processes = new ProcessService();

  it('returns what the program printed and its status, with stdin closed', async () => {
    const result = await processes.capture('sh', ['-c', 'cat; echo out; echo err >&2; exit 3']);
    expect(result).toEqual({ code: 3, signal: null, stdout: 'out\n', stderr: 'err\n' });
  });

  it('kills a program that outlives timeoutMs, even when a grandchild holds its output', async () => {
    const started = Date.now();
    const result = await processes.capture('sh', ['-c', 'sleep 4 & sleep 4'], {
      timeoutMs: 200,
    });
    expect(result.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('reports a program that cannot start as status 127', async () => {
    const result = await processes.capture('/nonexistent/toolkit-test-binary', []);
    expect(result.code).toBe(127);
  });
});
