import type * as AnthropicSdk from '@anthropic-ai/sdk';

let sdk: typeof AnthropicSdk | undefined;

/**
 * Loads the `@anthropic-ai/sdk` SDK on first use, so importing toolkit (and serving an app that never calls
 * Anthropic) does not pay for it.
 *
 * @example
 * const { default: Client } = await loadAnthropicSdk();
 */
export async function loadAnthropicSdk(): Promise<typeof AnthropicSdk> {
  sdk ??= await import('@anthropic-ai/sdk');
  return sdk;
}

/** The `@anthropic-ai/sdk` SDK if {@link loadAnthropicSdk} has loaded it (no SDK error can exist before). */
export function loadedAnthropicSdk(): typeof AnthropicSdk | undefined {
  return sdk;
}
