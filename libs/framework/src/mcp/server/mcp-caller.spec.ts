import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import { mcpCallerKey } from './mcp-caller.js';

const request = (headers: IncomingMessage['headers']) => ({ headers }) as IncomingMessage;

describe('mcpCallerKey', () => {
  it('is the user of an authenticated request', () => {
    expect(mcpCallerKey('user:42', request({ authorization: 'Bearer x' }))).toBe('user:42');
  });

  it('is the session when the request carried its cookie', () => {
    const req = request({ cookie: 'a=b; toolkit_session=abc.def' });
    expect(mcpCallerKey('session:abc', req)).toBe('session:abc');
  });

  it('is a digest of the Authorization header otherwise, never the header itself', () => {
    const a = mcpCallerKey('session:one', request({ authorization: 'Bearer secret' }));
    const b = mcpCallerKey('session:two', request({ authorization: 'Bearer secret' }));
    const c = mcpCallerKey('session:one', request({ authorization: 'Bearer other' }));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toMatch(/^auth:[A-Za-z0-9_-]{43}$/);
  });

  it('is undefined for an anonymous request (only a closed connection cancels its calls)', () => {
    expect(mcpCallerKey('session:new', request({}))).toBeUndefined();
  });
});
