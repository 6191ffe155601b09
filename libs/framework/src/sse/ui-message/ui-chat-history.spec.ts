import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../../../../providers/src/errors/validation.error.js';
import { assertUiChatHistory } from './ui-chat-history.js';

const u = (content: string) => ({ role: 'user', content });
const a = (content: string) => ({ role: 'assistant', content });

function problemsOf(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details;
  }
  return undefined;
}

describe('assertUiChatHistory', () => {
  it('accepts the user messages the server holds, whatever the answers say', () => {
    const stored = [u('Hi'), a('Hello there, how can'), u('Weather?'), a('Sunny')];
    // The client stopped the first answer earlier than the server recorded it.
    const history = [u('Hi'), a('Hello'), u('Weather?'), a('Sunny')];
    expect(() => assertUiChatHistory({ id: 'c', history }, stored)).not.toThrow();
    expect(() => assertUiChatHistory({ id: 'c', history: [] }, [])).not.toThrow();
  });

  it('accepts older messages the server no longer keeps', () => {
    const history = [u('Old'), a('Older answer'), u('Hi'), a('Hello')];
    expect(() => assertUiChatHistory({ id: 'c', history }, [u('Hi'), a('Hello')])).not.toThrow();
  });

  it('accepts a client that lacks the newest messages (a reload resumed their answer)', () => {
    const stored = [u('Hi'), a('Hello'), u('Weather?'), a('Sunny')];
    expect(() =>
      assertUiChatHistory({ id: 'c', history: [u('Hi'), a('Hello')] }, stored),
    ).not.toThrow();
    expect(() => assertUiChatHistory({ id: 'c', history: [] }, stored)).not.toThrow();
  });

  it('accepts a client lacking older messages while the server lacks the newest', () => {
    const history = [u('Old'), a('…'), u('Hi'), a('Hello')];
    const stored = [u('Hi'), a('Hello'), u('Weather?'), a('Sunny')];
    expect(() => assertUiChatHistory({ id: 'c', history }, stored)).not.toThrow();
  });

  it('refuses a rewritten first message too, where only it overlaps', () => {
    const history = [u('Rewritten'), a('Hello')];
    expect(
      problemsOf(() => assertUiChatHistory({ id: 'c', history }, [u('Hi'), a('Hello')])),
    ).toEqual([
      { param: 'messages[0]', problem: 'differs from the message the server holds for chat "c"' },
    ]);
  });

  it('refuses a rewritten user message, naming its index in the request', () => {
    const history = [u('Hi'), a('Hello'), u('Rewritten'), a('Sunny')];
    const stored = [u('Hi'), a('Hello'), u('Weather?'), a('Sunny')];
    expect(problemsOf(() => assertUiChatHistory({ id: 'c', history }, stored))).toEqual([
      { param: 'messages[2]', problem: 'differs from the message the server holds for chat "c"' },
    ]);
  });
});
