import type { TransformerPackage } from '@nestjs/common/interfaces/external/transformer-package.interface.js';
import type { ValidatorPackage } from '@nestjs/common/interfaces/external/validator-package.interface.js';
import { createRequire } from 'node:module';
import { MissingValidationPackageError } from './missing-validation-package.error.js';

const requireFromToolkit = createRequire(import.meta.url);

/** A loader that requires `name` on its first call; a missing package is a {@link MissingValidationPackageError}. */
export function requireOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded) return loaded;
    try {
      loaded = requireFromToolkit(name) as T;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'MODULE_NOT_FOUND') throw new MissingValidationPackageError(name);
      throw error;
    }
    return loaded;
  };
}

type ClassValidator = ValidatorPackage & { getMetadataStorage(): unknown };

const classValidator = requireOnFirstUse<ClassValidator>('class-validator');
const classTransformer = requireOnFirstUse<TransformerPackage>('class-transformer');

/**
 * class-validator for Nest's `ValidationPipe`, required on the first DTO it validates instead of
 * when the pipe is built: optional peers of toolkit, so an app with no DTO class neither installs
 * nor loads them, and one that needs them and lacks them gets an error naming the install command.
 */
export const lazyValidatorPackage: ClassValidator = {
  validate: (object, options) => classValidator().validate(object, options),
  getMetadataStorage: () => classValidator().getMetadataStorage(),
};

/** class-transformer for Nest's `ValidationPipe`, required on first use (see above). */
export const lazyTransformerPackage: TransformerPackage = {
  plainToInstance: (cls, plain, options) => classTransformer().plainToInstance(cls, plain, options),
  classToPlain: (object, options) => classTransformer().classToPlain(object, options),
};
