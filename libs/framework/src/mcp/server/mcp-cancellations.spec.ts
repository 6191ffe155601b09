import { describe, expect, it } from '@jest/globals';
import { McpCancellations } from './mcp-cancellations.js';

describe('McpCancellations', () => {
  it("aborts only the named call of the same caller, with the client's reason", () => {
    const calls = new McpCancellations();
    const mine = calls.track('user:a', 1);
    const other = calls.track('user:b', 1);
    const textId = calls.track('user:a', '1');
    expect(calls.cancel('user:a', 1, 'changed my mind')).toBe(true);
    expect(mine.signal.aborted).toBe(true);
    expect((mine.signal.reason as Error).message).toBe(
      'The MCP client cancelled the call: changed my mind',
    );
    expect(other.signal.aborted).toBe(false);
    expect(textId.signal.aborted).toBe(false);
  });

  it('forgets a released call', () => {
    const calls = new McpCancellations();
    const call = calls.track('user:a', 7);
    call.release();
    expect(calls.cancel('user:a', 7, undefined)).toBe(false);
    expect(call.signal.aborted).toBe(false);
  });
});
