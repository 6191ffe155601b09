import type { ModelMessage } from '../provider/language-model.interface.js';

const GREETING = /^(hi|hello|hey|hallo|bonjour|good (morning|afternoon|evening))\b/i;
const ASK_NAME = /\bwhat(?:'s| is) my name\b/i;
const GIVE_NAME = /\b(?:[Mm]y name is|[Cc]all me|I am|I'm)\s+(\p{Lu}[\p{L}'-]*)/u;

function quote(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The name the user gave most recently ("my name is Ada", "call me Ada"), if any. */
function nameFrom(userMessages: readonly string[]): string | undefined {
  for (let i = userMessages.length - 1; i >= 0; i--) {
    const match = GIVE_NAME.exec(userMessages[i]);
    if (match) return match[1];
  }
  return undefined;
}

function opening(last: string, name: string | undefined, introducedNow: boolean): string {
  if (last === '') return 'You sent an empty message: say something and I will answer.';
  if (ASK_NAME.test(last)) {
    return name ? `Your name is ${name}.` : 'You have not told me your name yet.';
  }
  if (introducedNow && name) return `Nice to meet you, ${name}! You said: "${quote(last)}".`;
  if (GREETING.test(last)) {
    const who = name ? `Hello, ${name}!` : 'Hello!';
    return `${who} I am echo, the offline model: I answer without network or API key.`;
  }
  if (last.endsWith('?'))
    return `You asked: "${quote(last)}". I am offline, so I can only reflect it.`;
  return `You said: "${quote(last)}".`;
}

/**
 * The offline `echo` model's answer: deterministic, built only from the conversation. It
 * greets, remembers a name the user gave, quotes the new message, counts the turns and refers
 * back to the previous user message, so a chatbot wired to it visibly uses its memory.
 *
 * @example
 * echoReply([{ role: 'user', content: 'Hi, I am Ada' }]);
 * // 'Nice to meet you, Ada! You said: "Hi, I am Ada". This is the first message of our conversation.'
 */
export function echoReply(messages: readonly ModelMessage[]): string {
  const userMessages = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const last = (userMessages.at(-1) ?? '').trim();
  const name = nameFrom(userMessages);
  const introducedNow = name !== undefined && nameFrom([last]) === name;
  const parts = [opening(last, name, introducedNow)];
  const turn = userMessages.length;
  if (turn <= 1) {
    parts.push('This is the first message of our conversation.');
  } else {
    const previous = quote(userMessages[turn - 2], 60);
    parts.push(`This is message ${turn} of our conversation; before this you said "${previous}".`);
  }
  return parts.join(' ');
}
