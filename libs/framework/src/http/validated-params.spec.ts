import { describe, expect, it } from '@jest/globals';
import { Body, Controller, Param, Post, Query, Req } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { IsString } from 'class-validator';
import { z } from 'zod';
import { Arg } from '../routing/arg.decorator.js';
import { hasValidatedParams, needsValidation } from './validated-params.js';

class NoteDto {
  @IsString() text!: string;
}

@Controller()
class NotesController {
  @Post() dto(@Body() _note: NoteDto): void {}
  @Post() schema(@Body({ schema: z.object({ text: z.string() }) }) _note: unknown): void {}
  @Post() page(@Query('page') _page: number): void {}
  @Post() flag(@Param('flag') _flag: boolean): void {}
  @Post() text(@Body('text') _text: string, @Req() _req: object): void {}
  @Post() numberBody(@Body('n') _n: number): void {}
  @Post() arg(@Arg('text') _text: string): void {}
  @Post() argDto(@Arg('note') _note: NoteDto): void {}
  @Post() none(): void {}
  helper(): void {}
}

describe('hasValidatedParams', () => {
  it.each(['dto', 'schema', 'page', 'flag'])('is true for %s: the pipe has work there', (name) => {
    expect(hasValidatedParams(NotesController, name)).toBe(true);
  });

  it.each(['text', 'numberBody', 'arg', 'argDto', 'none', 'helper', 'missing'])(
    'is false for %s: every parameter is handed over as it came',
    (name) => {
      expect(hasValidatedParams(NotesController, name)).toBe(false);
    },
  );

  it('agrees with what the pipe decides, and only reads the metadata', () => {
    const recorded = Reflect.getMetadata(ROUTE_ARGS_METADATA, NotesController, 'dto') as Record<
      string,
      { pipes: unknown[] }
    >;
    const pipes = Object.values(recorded).map((param) => [...param.pipes]);
    expect(hasValidatedParams(NotesController, 'dto')).toBe(
      needsValidation({ type: 'body', metatype: NoteDto }),
    );
    expect(Object.values(recorded).map((param) => param.pipes)).toEqual(pipes);
  });
});
