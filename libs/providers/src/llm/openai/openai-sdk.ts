import type * as OpenAISdk from 'openai';

let sdk: typeof OpenAISdk | undefined;

/**
 * Loads the `openai` SDK on first use, so importing toolkit (and serving an app that never calls
 * OpenAI) does not pay for it.
 *
 * @example
 * const { default: Client } = await loadOpenAISdk();
 */
export async function loadOpenAISdk(): Promise<typeof OpenAISdk> {
  sdk ??= await import('openai');
  return sdk;
}

/** The `openai` SDK if {@link loadOpenAISdk} has loaded it (no SDK error can exist before). */
export function loadedOpenAISdk(): typeof OpenAISdk | undefined {
  return sdk;
}
