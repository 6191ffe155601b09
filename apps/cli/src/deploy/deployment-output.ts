/**
 * The URL a deploy client printed: the first one on `domainHint` (e.g. `.fly.dev`) when there is
 * one, else the first URL at all; trailing punctuation is dropped.
 *
 * @example
 * findUrl('Visit https://my-bot.fly.dev/ now.', '.fly.dev'); // 'https://my-bot.fly.dev/'
 */
export function findUrl(output: string, domainHint?: string): string | undefined {
  return (domainHint && findUrlOn(output, domainHint)) || allUrls(output)[0];
}

/**
 * The first URL whose host ends with `domain`, or `undefined`.
 *
 * @example
 * findUrlOn('https://a.herokuapp.com/ | https://git.heroku.com/a.git', 'git.heroku.com');
 */
export function findUrlOn(output: string, domain: string): string | undefined {
  return allUrls(output).find((url) => {
    try {
      return new URL(url).hostname.endsWith(domain);
    } catch {
      return false;
    }
  });
}

function allUrls(output: string): string[] {
  return [...output.matchAll(/https?:\/\/[^\s"'<>|]+/g)].map((m) =>
    m[0].replace(/[.,;:)\]]+$/, ''),
  );
}

const SECRET_NAME = /(API_KEYS?|SECRET|TOKEN|PASSWORD)$/;

/**
 * Names (never values) of the secrets in the project's `.env` that a deployment needs, e.g.
 * `['OPENAI_API_KEY']`; `OPENAI_API_KEY` when `.env` names none.
 *
 * @example
 * secretNames('OPENAI_API_KEY=<API_KEY>\nDEBUG=false\n'); // ['OPENAI_API_KEY']
 */
export function secretNames(dotenv: string | undefined): string[] {
  const names = (dotenv ?? '')
    .split(/\r?\n/)
    .map((line) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && SECRET_NAME.test(name));
  return names.length > 0 ? [...new Set(names)] : ['OPENAI_API_KEY'];
}
