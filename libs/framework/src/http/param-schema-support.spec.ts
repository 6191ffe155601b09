import { describe, expect, it } from '@jest/globals';
import type { PipeTransform } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import {
  nestReadsParamSchema,
  ParamSchemaUnsupportedError,
  replaceMisreadSchemas,
} from './param-schema-support.js';

const schema: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) },
};

/** A controller whose `create` parameter metadata is what the given Nest records for `@Body({ schema })`. */
function controllerAsRecordedBy(nest: 11 | 12): new () => object {
  class NotesController {
    create(_body: unknown): void {}
  }
  // RouteParamtypes.BODY is 3 on both. Nest 11 reads the options object as a pipe.
  const param = nest === 11 ? { index: 0, pipes: [{ schema }] } : { index: 0, pipes: [], schema };
  Reflect.defineMetadata(ROUTE_ARGS_METADATA, { '3:0': param }, NotesController, 'create');
  return NotesController;
}

function pipesOf(controller: object): unknown[] {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, 'create') as Record<
    string,
    { pipes: unknown[] }
  >;
  return args['3:0'].pipes;
}

describe('Standard Schema on Nest parameter decorators', () => {
  it("is detected on this repository's Nest 12", () => {
    expect(nestReadsParamSchema()).toBe(true);
  });

  it('turns a { schema } that Nest 11 took for a pipe into a clear error', () => {
    const controller = controllerAsRecordedBy(11);
    expect(replaceMisreadSchemas(controller)).toEqual(['NotesController.create(#0)']);
    const [pipe] = pipesOf(controller) as PipeTransform<unknown, unknown>[];
    const run = (): unknown => pipe.transform({}, { type: 'body' });
    expect(run).toThrow(ParamSchemaUnsupportedError);
    expect(run).toThrow(
      'NotesController.create(#0) declares { schema } on a Nest parameter decorator, which needs Nest 12; ' +
        'upgrade @nestjs/common and @nestjs/core to ^12, or use @Arg(name, { schema }) or a DTO class',
    );
  });

  it('leaves what Nest 12 records, and real pipes, alone', () => {
    const controller = controllerAsRecordedBy(12);
    expect(replaceMisreadSchemas(controller)).toEqual([]);
    expect(pipesOf(controller)).toEqual([]);
  });
});
