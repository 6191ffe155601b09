import { loadConfig } from '../../../../libs/framework/src/internal.js';
import { isKeySet } from '../../../../libs/providers/src/index.js';
import { resolveDefaultModel, resolveModel } from '../../../../libs/providers/src/internal.js';

/** The banner's LLM line, and a warning when the app will not reach a real model. */
export interface LlmSummary {
  /** e.g. `gpt-4o-mini via OpenAI (openai, OPENAI_API_KEY set)`. */
  line: string;
  /** Set when the model is the offline `echo`, or the chosen provider's key is missing. */
  warning?: string;
}

/**
 * Describes the model `llm.default_model` resolves to in the project at `cwd` (reading
 * `toolkit.yaml`, `.env` and `TOOLKIT_*` like the app will). Never prints key values. Throws the
 * loader's `ConfigError` when the configuration is invalid: the app would not start either.
 *
 * @example
 * describeLlm('/work/my-bot', process.env).line; // 'echo (offline: no provider key set ...)'
 */
export function describeLlm(cwd: string, baseEnv: NodeJS.ProcessEnv): LlmSummary {
  const env = { ...baseEnv }; // .env is layered onto a copy: the CLI's own environment stays as it was
  const config = loadConfig({ cwd, env });
  const choice = resolveDefaultModel(config.llm.default_model, env, config.llm.default_provider);
  if (choice.offline) {
    return {
      line: `${choice.model} (${choice.reason})`,
      warning:
        'the app answers with the offline "echo" model because no provider key is set. ' +
        'Put a key such as OPENAI_API_KEY or ANTHROPIC_API_KEY in .env to use a real model.',
    };
  }
  try {
    const resolved = resolveModel(choice.model, {
      env,
      defaultProvider: config.llm.default_provider,
    });
    const line = `${choice.model} via ${resolved.label} (${choice.reason})`;
    if (resolved.keyVar && !isKeySet(env[resolved.keyVar])) {
      return {
        line,
        warning: `${resolved.keyVar} is not set: calls to ${resolved.label} will fail with 503.`,
      };
    }
    return { line };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { line: `${choice.model} (${choice.reason})`, warning: reason };
  }
}
