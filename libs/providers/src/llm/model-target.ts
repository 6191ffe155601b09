import { ConfigError } from '../errors/config.error.js';
import { isKeySet, resolveDefaultModel } from './default-model.js';
import type { ModelSpec } from './llm-options.interface.js';
import type { ResolvedLlmOptions } from './llm-options.js';
import { MissingApiKeyError, MissingSdkError } from './llm.errors.js';
import { missingSdk } from './provider/sdk-packages.js';
import type { LlmErrorContext } from './llm.errors.js';
import { createLanguageModel } from './provider/create-language-model.js';
import type { LanguageModel } from './provider/language-model.interface.js';
import { providerFetch } from './provider/provider.fetch.js';
import type { FetchFunction } from './provider/provider.fetch.js';
import { providerInfo } from './resolution/providers.table.js';
import { resolveModel } from './resolution/resolve-model.js';
import type { ModelResolution } from './resolution/resolve-model.js';

/** How to reach one model of an `LLM`. Internal. */
interface TargetSettings {
  apiKey?: string;
  baseURL?: string;
  embeddingModel?: string;
  fetch: FetchFunction;
  options: ResolvedLlmOptions;
}

/**
 * One model of an `LLM` (the first, or a fallback): its resolution plus a lazily built vendor
 * adapter. The key is checked on first use, so a missing key answers 503 per call instead of
 * stopping the app from starting.
 */
export class ModelTarget {
  private instance: LanguageModel | undefined;

  constructor(
    readonly resolution: ModelResolution,
    private readonly settings: TargetSettings,
  ) {}

  /** Per-attempt timeout. */
  get timeoutMs(): number {
    return this.settings.options.timeoutMs;
  }

  /** Base URL calls go to: the entry's or option's URL, else the provider's; `null` for `echo`. */
  get baseURL(): string | null {
    return this.settings.baseURL ?? this.resolution.baseURL;
  }

  /** Model `embed()` asks for: the `embeddingModel` option, an `*embed*` model, the provider's. */
  get embeddingModel(): string | undefined {
    const r = this.resolution;
    const own = /embed/i.test(r.model) ? r.model : providerInfo(r.provider).embeddingModel;
    return this.settings.embeddingModel ?? own;
  }

  /** Context for error messages. */
  get context(): LlmErrorContext {
    const r = this.resolution;
    return { provider: r.label, model: r.model, keyVar: r.keyVar };
  }

  /**
   * The vendor adapter; throws {@link MissingApiKeyError} when the key is unset and
   * {@link MissingSdkError} when the provider's SDK package is not installed.
   */
  languageModel(): LanguageModel {
    if (this.instance) return this.instance;
    const { resolution: r, settings: s } = this;
    const apiKey = s.apiKey ?? (r.keyVar ? s.options.env[r.keyVar] : undefined);
    if (r.keyVar && !isKeySet(apiKey)) throw new MissingApiKeyError(this.context, r.keyVar);
    const sdk = missingSdk(r.api);
    if (sdk !== undefined) throw new MissingSdkError(this.context, sdk);
    this.instance = createLanguageModel(
      {
        resolution: r,
        apiKey: r.keyVar ? apiKey : undefined,
        baseURL: this.baseURL,
        timeoutMs: s.options.timeoutMs,
        maxRetries: s.options.maxRetries,
        fetch: s.fetch,
        embeddingModel: this.embeddingModel,
        embedBatchSize: s.options.embedBatchSize,
        headers: s.options.headers,
      },
      s.options.echoDelayMs,
    );
    return this.instance;
  }
}

/**
 * Resolves every model of a fallback list. `apiKey`/`baseURL` options apply to models of the
 * first model's provider; an entry's own key and URL win. `auto` picks by the keys set.
 */
export function buildTargets(
  specs: readonly ModelSpec[],
  options: ResolvedLlmOptions,
): ModelTarget[] {
  if (specs.length === 0)
    throw new ConfigError('model', 'must name at least one model', 'new LLM()');
  const { env, defaultProvider } = options;
  const fetch = providerFetch(options.maxRetryAfterMs);
  const entries = specs.map((spec) => (typeof spec === 'string' ? { model: spec } : spec));
  const resolutions = entries.map((entry) => {
    const name =
      entry.model === 'auto'
        ? resolveDefaultModel('auto', env, defaultProvider).model
        : entry.model;
    return resolveModel(name, { env, defaultProvider });
  });
  const first = resolutions[0].provider;
  return resolutions.map((resolution, i) => {
    const same = resolution.provider === first;
    return new ModelTarget(resolution, {
      apiKey: entries[i].apiKey ?? (same ? options.apiKey : undefined),
      baseURL: entries[i].baseURL ?? (same ? options.baseURL : undefined),
      fetch,
      options,
    });
  });
}

/** The target `embed()` uses: `embeddingModel` when set (any provider), else the first model. */
export function buildEmbeddingTarget(first: ModelTarget, options: ResolvedLlmOptions): ModelTarget {
  if (!options.embeddingModel) return first;
  const resolution = resolveModel(options.embeddingModel, {
    env: options.env,
    defaultProvider: first.resolution.provider,
  });
  const same = resolution.provider === first.resolution.provider;
  return new ModelTarget(resolution, {
    apiKey: same ? options.apiKey : undefined,
    baseURL: same ? options.baseURL : undefined,
    embeddingModel: resolution.model,
    fetch: providerFetch(options.maxRetryAfterMs),
    options,
  });
}
