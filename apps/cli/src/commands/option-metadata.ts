import type { OptionMetadata } from 'nest-commander';
import type { OptionSummary } from '../command-manifest.js';

/**
 * The `@Option()` metadata of a manifest option, so the Nest command and the fast path declare
 * the option identically (the parser stays a method of the command, as nest-commander wants).
 *
 * @example
 * \@Option(optionMetadata(DEV_OPTIONS.port))
 */
export function optionMetadata(option: OptionSummary): OptionMetadata {
  return {
    flags: option.flags,
    description: option.description,
    ...(option.defaultValue === undefined ? {} : { defaultValue: option.defaultValue }),
    ...(option.choices ? { choices: [...option.choices] } : {}),
  };
}
