import { InvalidArgumentError } from 'commander';

/** The HTTP platforms a generated project can run on, in the order the help lists them. */
export const HTTP_PLATFORMS = ['express', 'fastify'] as const;

/** One of {@link HTTP_PLATFORMS}. */
export type HttpPlatformChoice = (typeof HTTP_PLATFORMS)[number];

/** The platform used when `--platform` is not given. */
export const DEFAULT_HTTP_PLATFORM: HttpPlatformChoice = 'express';

/**
 * Parses `toolkit new --platform`. Anything else is a usage error worded like commander's own
 * `choices` check (the CLI exits with 2).
 *
 * @example
 * parseHttpPlatform('fastify'); // 'fastify'
 */
export function parseHttpPlatform(value: string): HttpPlatformChoice {
  if (!(HTTP_PLATFORMS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`Allowed choices are ${HTTP_PLATFORMS.join(', ')}.`);
  }
  return value as HttpPlatformChoice;
}
