import { AnthropicChatModel } from '../anthropic/anthropic.provider.js';
import { EchoModel } from '../echo/echo.provider.js';
import { OpenAIChatModel } from '../openai/openai.provider.js';
import type { ProviderApi } from '../resolution/providers.table.js';
import type { LanguageModel } from './language-model.interface.js';
import type { VendorSettings } from './vendor-settings.interface.js';

/** One factory per wire protocol; OpenAI-compatible families share the OpenAI adapter. */
const FACTORIES: Record<
  ProviderApi,
  (settings: VendorSettings, echoDelayMs: number) => LanguageModel
> = {
  openai: (settings) => new OpenAIChatModel(settings),
  anthropic: (settings) => new AnthropicChatModel(settings),
  echo: (_settings, delayMs) => new EchoModel({ delayMs }),
};

/** Builds the vendor adapter a resolution calls for. */
export function createLanguageModel(settings: VendorSettings, echoDelayMs = 0): LanguageModel {
  return FACTORIES[settings.resolution.api](settings, echoDelayMs);
}
