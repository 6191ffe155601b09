import type { Provider } from '@nestjs/common';
import { ConfigError, TOOLKIT_CONFIG, type ToolkitConfig } from 'toolkit';

/** Writing styles for `/generate`: a name and the instruction the model gets. */
export type Styles = Record<string, string>;

/**
 * The instruction of the style `name`, or `undefined` for a name that is not one of the styles:
 * only the table's own entries count, so `__proto__`, `constructor` or `toString` are unknown
 * styles, not what every object inherits.
 */
export function styleInstruction(styles: Styles, name: string): string | undefined {
  return Object.hasOwn(styles, name) ? styles[name] : undefined;
}

/** Injection token of the styles. */
export const STYLES = Symbol('STYLES');

/** Built-in styles; `styles:` in toolkit.yaml adds to or replaces them. */
export const DEFAULT_STYLES: Styles = {
  formal: 'Write in a formal, professional register.',
  casual: 'Write in a relaxed, friendly, conversational tone.',
  technical: 'Write precisely for an expert audience, with correct terminology.',
  creative: 'Write imaginatively, with vivid language.',
  concise: 'Write as briefly as possible without losing meaning.',
};

/** The styles the app uses: the defaults plus `styles:` from toolkit.yaml, checked at start-up. */
export const stylesProvider: Provider = {
  provide: STYLES,
  inject: [TOOLKIT_CONFIG],
  useFactory: (config: ToolkitConfig): Styles => {
    const configured = config.extra.styles ?? {};
    if (typeof configured !== 'object' || configured === null || Array.isArray(configured)) {
      throw new ConfigError('styles', 'must map style names to instructions', 'toolkit.yaml');
    }
    for (const [name, instruction] of Object.entries(configured)) {
      if (typeof instruction !== 'string' || instruction.trim() === '') {
        throw new ConfigError(`styles.${name}`, 'must be a non-empty instruction', 'toolkit.yaml');
      }
    }
    return { ...DEFAULT_STYLES, ...(configured as Styles) };
  },
};
