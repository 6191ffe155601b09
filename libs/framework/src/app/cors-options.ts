import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';

/**
 * Response headers of toolkit's own that a cross-origin page needs to read: `X-Stream-Id` names
 * a resumable stream (to resume or cancel it). A browser hides any header that is not listed in
 * `Access-Control-Expose-Headers` from a page of another origin.
 */
export const EXPOSED_HEADERS: readonly string[] = ['X-Stream-Id'];

/**
 * The CORS options `App` enables: `true` is Nest's defaults, and either way
 * {@link EXPOSED_HEADERS} are added to the `exposedHeaders` the options give (kept, and not
 * repeated).
 */
export function corsOptions(cors: true | CorsOptions): CorsOptions {
  const options = cors === true ? {} : cors;
  const given = options.exposedHeaders;
  const exposed =
    given === undefined
      ? []
      : (typeof given === 'string' ? given.split(',') : given)
          .map((name) => name.trim())
          .filter((name) => name !== '');
  for (const name of EXPOSED_HEADERS) {
    if (!exposed.some((other) => other.toLowerCase() === name.toLowerCase())) exposed.push(name);
  }
  return { ...options, exposedHeaders: exposed };
}
