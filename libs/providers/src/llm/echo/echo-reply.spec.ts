import { describe, expect, it } from '@jest/globals';
import { echoReply } from './echo-reply.js';

const user = (content: string) => ({ role: 'user' as const, content });
const bot = (content: string) => ({ role: 'assistant' as const, content });

describe('echoReply', () => {
  it('quotes a first message', () => {
    expect(echoReply([user('The sky is blue')])).toBe(
      'You said: "The sky is blue". This is the first message of our conversation.',
    );
  });

  it('greets, and greets by name once it knows it', () => {
    expect(echoReply([user('hello')])).toMatch(/^Hello! I am echo/);
    expect(echoReply([user('call me Bob'), bot('ok'), user('Hi!')])).toMatch(/^Hello, Bob!/);
  });

  it('learns a name and recalls it later', () => {
    expect(echoReply([user("Hi, I'm Ada")])).toMatch(/^Nice to meet you, Ada!/);
    expect(echoReply([user('My name is Ada'), bot('hi'), user("what's my name?")])).toMatch(
      /^Your name is Ada\./,
    );
    expect(echoReply([user('what is my name')])).toMatch(/^You have not told me your name yet\./);
  });

  it('counts turns and refers back to the previous user message', () => {
    const reply = echoReply([user('first'), bot('a'), user('second'), bot('b'), user('third')]);
    expect(reply).toBe(
      'You said: "third". This is message 3 of our conversation; before this you said "second".',
    );
  });

  it('answers questions and empty messages, and shortens long quotes', () => {
    expect(echoReply([user('Why?')])).toMatch(/^You asked: "Why\?"/);
    expect(echoReply([user('   ')])).toMatch(/^You sent an empty message/);
    expect(echoReply([user('word '.repeat(50))])).toContain('…');
  });
});
