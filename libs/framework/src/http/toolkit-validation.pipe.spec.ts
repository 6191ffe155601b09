import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { Type as NestedType } from 'class-transformer';
import { z } from 'zod';
import { ValidationError } from '../../../providers/src/errors/validation.error.js';
import { ToolkitValidationPipe } from './toolkit-validation.pipe.js';

class Address {
  @IsString() city!: string;
}

class NoteDto {
  @IsString() text!: string;
  @IsInt() @Min(1) stars!: number;
  @ValidateNested() @NestedType(() => Address) address!: Address;
}

const pipe = new ToolkitValidationPipe();

/** What `transform` threw, as a `ValidationError`. */
async function refusal(value: unknown, metadata: ArgumentMetadata): Promise<ValidationError> {
  try {
    await pipe.transform(value, metadata);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('the value was accepted');
}

describe('ToolkitValidationPipe: what it leaves alone', () => {
  const passThrough: [string, ArgumentMetadata][] = [
    ["a custom decorator such as toolkit's @Arg", { type: 'custom', metatype: NoteDto }],
    ['a string body value', { type: 'body', metatype: String, data: 'text' }],
    ['a whole body typed object', { type: 'body', metatype: Object }],
    ['an array body', { type: 'body', metatype: Array }],
    ['a body without a type (plain JavaScript)', { type: 'body' }],
    [
      'a number-typed body value (Nest converts only query and path text)',
      { type: 'body', metatype: Number, data: 'n' },
    ],
    ['a string query value', { type: 'query', metatype: String, data: 'tag' }],
    ['a whole query object typed number', { type: 'query', metatype: Number }],
    ['a Date path value', { type: 'param', metatype: Date, data: 'day' }],
  ];

  it.each(passThrough)('hands over %s as it came, synchronously', (_name, metadata) => {
    const value = { any: 'value' };
    expect(pipe.transform(value, metadata)).toBe(value);
  });
});

describe('ToolkitValidationPipe: what it validates or converts', () => {
  it('converts number and boolean query and path text, as a ValidationPipe does', async () => {
    await expect(
      pipe.transform('2', { type: 'query', metatype: Number, data: 'page' }),
    ).resolves.toBe(2);
    await expect(
      pipe.transform('x', { type: 'param', metatype: Number, data: 'id' }),
    ).resolves.toBeNaN();
    await expect(
      pipe.transform('true', { type: 'query', metatype: Boolean, data: 'draft' }),
    ).resolves.toBe(true);
    await expect(
      pipe.transform('yes', { type: 'query', metatype: Boolean, data: 'draft' }),
    ).resolves.toBe(false);
    await expect(
      pipe.transform(undefined, { type: 'query', metatype: Number, data: 'page' }),
    ).resolves.toBeUndefined();
  });

  it('hands a valid DTO body over as an instance of its class', async () => {
    const body = { text: 'hi', stars: 2, address: { city: 'Oslo' } };
    const dto = await pipe.transform(body, { type: 'body', metatype: NoteDto });
    expect(dto).toBeInstanceOf(NoteDto);
    expect(dto).toEqual(body);
  });

  it('refuses an invalid DTO with a 422 naming each field, nested ones by their path', async () => {
    const error = await refusal(
      { text: 3, stars: 0, address: { city: 4 } },
      { type: 'body', metatype: NoteDto },
    );
    expect(error.statusCode).toBe(422);
    expect(error.details.map((d) => d.param)).toEqual(['text', 'stars', 'address.city']);
  });

  it('refuses a missing DTO body field by field', async () => {
    const error = await refusal(undefined, { type: 'body', metatype: NoteDto });
    expect(new Set(error.details.map((d) => d.param))).toEqual(new Set(['text', 'stars']));
  });

  it('validates and converts with a Standard Schema, whatever the declared type', async () => {
    const schema = z.coerce.number().int().min(1);
    await expect(
      pipe.transform('3', { type: 'query', metatype: String, data: 'page', schema }),
    ).resolves.toBe(3);
    const error = await refusal('0', { type: 'query', metatype: String, data: 'page', schema });
    expect(error.details).toEqual([{ param: 'page', problem: expect.any(String) }]);
  });

  it('names the fields of a whole-body schema, or the parameter kind for the body itself', async () => {
    const schema = z.object({ message: z.string().min(1) });
    const fields = await refusal({ message: '' }, { type: 'body', metatype: Object, schema });
    expect(fields.details.map((d) => d.param)).toEqual(['message']);
    const whole = await refusal('text', { type: 'body', metatype: Object, schema });
    expect(whole.details.map((d) => d.param)).toEqual(['body']);
  });
});
