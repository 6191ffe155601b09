import { describe, expect, it } from '@jest/globals';
import { findUrl, findUrlOn, secretNames } from './deployment-output.js';

describe('findUrl', () => {
  const heroku =
    'Creating my-bot... done\nhttps://my-bot-1a.herokuapp.com/ | https://git.heroku.com/my-bot.git\n';

  it('prefers a URL on the hinted domain, else the first URL, dropping trailing punctuation', () => {
    expect(findUrl('see https://docs.example.com, then https://my-bot.fly.dev/.', '.fly.dev')).toBe(
      'https://my-bot.fly.dev/',
    );
    expect(findUrl('Deployed to https://x.example.com.')).toBe('https://x.example.com');
    expect(findUrl('no url here')).toBeUndefined();
  });

  it('findUrlOn only accepts the domain', () => {
    expect(findUrlOn(heroku, 'git.heroku.com')).toBe('https://git.heroku.com/my-bot.git');
    expect(findUrlOn(heroku, '.herokuapp.com')).toBe('https://my-bot-1a.herokuapp.com/');
    expect(findUrlOn(heroku, '.vercel.app')).toBeUndefined();
  });
});

describe('secretNames', () => {
  it('lists secret-looking variable names from .env, never values', () => {
    const dotenv =
      'OPENAI_API_KEY=<API_KEY>\nexport ANTHROPIC_API_KEY=sk-1\nDEBUG=false\nAPI_KEYS=a,b\n# X_TOKEN=1\nDB_PASSWORD=x\n';
    expect(secretNames(dotenv)).toEqual([
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'API_KEYS',
      'DB_PASSWORD',
    ]);
  });

  it('falls back to OPENAI_API_KEY without .env', () => {
    expect(secretNames(undefined)).toEqual(['OPENAI_API_KEY']);
    expect(secretNames('DEBUG=true\n')).toEqual(['OPENAI_API_KEY']);
  });
});
