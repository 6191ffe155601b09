import { describe, expect, it } from '@jest/globals';
import { IsString } from 'class-validator';
import {
  lazyTransformerPackage,
  lazyValidatorPackage,
  requireOnFirstUse,
} from './class-validation-packages.js';
import { MissingValidationPackageError } from './missing-validation-package.error.js';

class Message {
  @IsString()
  text!: string;
}

describe('class-validator and class-transformer, required on first use', () => {
  it('validate a DTO through the installed packages', async () => {
    const entity = lazyTransformerPackage.plainToInstance(Message, { text: 42 });
    const errors = await lazyValidatorPackage.validate(entity);
    expect(errors).toHaveLength(1);
    expect(lazyValidatorPackage.getMetadataStorage()).toBeDefined();
  });

  it('name the package and the install command when it is missing', () => {
    const load = requireOnFirstUse('toolkit-no-such-validator');
    expect(load).toThrow(MissingValidationPackageError);
    expect(load).toThrow(
      'Validating a DTO class needs toolkit-no-such-validator, which is not installed: run npm install class-validator class-transformer',
    );
  });
});
