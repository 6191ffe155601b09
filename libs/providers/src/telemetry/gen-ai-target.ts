import type { ModelTarget } from '../llm/model-target.js';
import type { ProviderName } from '../llm/resolution/providers.table.js';
import { GEN_AI, SERVER_ADDRESS, SERVER_PORT } from './gen-ai-attributes.js';
import type { SpanAttributes } from './tracer.interface.js';

/**
 * `gen_ai.provider.name` of each provider: the conventions' well-known values where one exists
 * (OpenAI-compatible hosts keep their own name, not `openai`), toolkit's name otherwise.
 */
const PROVIDER_NAMES: Readonly<Record<ProviderName, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  mistral: 'mistral_ai',
  deepseek: 'deepseek',
  grok: 'x_ai',
  ollama: 'ollama',
  echo: 'echo',
};

/**
 * `gen_ai.provider.name` for a toolkit provider.
 *
 * @example
 * genAiProviderName('grok'); // 'x_ai'
 */
export function genAiProviderName(provider: ProviderName): string {
  return PROVIDER_NAMES[provider];
}

/** A target's attributes, worked out once (its base URL is parsed once, not per call). */
const TARGET_ATTRIBUTES = new WeakMap<ModelTarget, SpanAttributes>();

function serverOf(baseURL: string | null): { address: string; port: number } | undefined {
  if (baseURL === null) return undefined;
  try {
    const url = new URL(baseURL);
    const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
    return { address: url.hostname, port };
  } catch {
    return undefined;
  }
}

/**
 * What every span of a model call says about where it went: `gen_ai.provider.name`,
 * `server.address` and `server.port` (from the base URL; none for the offline `echo`).
 * Only called while tracing is on.
 *
 * @example
 * startSpan(name, { attributes: { ...targetAttributes(target), [GEN_AI.REQUEST_MODEL]: model } });
 */
export function targetAttributes(target: ModelTarget): SpanAttributes {
  let attributes = TARGET_ATTRIBUTES.get(target);
  if (attributes === undefined) {
    const server = serverOf(target.baseURL);
    attributes = Object.freeze({
      [GEN_AI.PROVIDER_NAME]: genAiProviderName(target.resolution.provider),
      [SERVER_ADDRESS]: server?.address,
      [SERVER_PORT]: server?.port,
    });
    TARGET_ATTRIBUTES.set(target, attributes);
  }
  return attributes;
}
