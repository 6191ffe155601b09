import { describe, expect, it } from '@jest/globals';
import { resolvePlatformId } from './deploy-platform.interface.js';
import { appNameProblem, parseAppName, suggestAppName } from './app-name.js';

describe('app names', () => {
  it.each(['my-bot', 'abc', 'a1-b2-c3'])('accepts %s', (name) => {
    expect(appNameProblem(name)).toBeUndefined();
    expect(parseAppName(` ${name} `)).toBe(name);
  });

  it.each(['ab', 'My-Bot', '1bot', 'bot-', 'my--bot', 'my_bot', 'a'.repeat(64)])(
    'refuses %s',
    (name) => {
      expect(appNameProblem(name)).toMatch(/lower-case letters/);
      expect(() => parseAppName(name)).toThrow(
        expect.objectContaining({ code: 'commander.invalidArgument' }),
      );
    },
  );

  it('suggests a valid name from the package name', () => {
    expect(suggestAppName('@acme/My_Bot')).toBe('my-bot');
    expect(suggestAppName('123')).toBeUndefined();
    expect(suggestAppName(undefined)).toBeUndefined();
  });
});

describe('resolvePlatformId', () => {
  it.each([
    ['vmhost', 'vmhost'],
    ['fly', 'vmhost'],
    ['Heroku', 'githost'],
    ['githost', 'githost'],
    ['vercel', 'serverless'],
    ['aws', 'cloudguide'],
    ['cloudguide', 'cloudguide'],
    ['nowhere', undefined],
  ])('%s → %s', (value, id) => {
    expect(resolvePlatformId(value)).toBe(id);
  });
});
