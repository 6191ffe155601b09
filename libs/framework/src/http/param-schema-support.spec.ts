import { describe, expect, it } from '@jest/globals';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { nestReadsParamSchema, misreadSchemas } from './param-schema-support.js';
import { ParamSchemaUnsupportedError } from './param-schema-unsupported.error.js';

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

  it('finds a { schema } that Nest 11 took for a pipe, changing nothing', () => {
    const controller = controllerAsRecordedBy(11);
    expect(misreadSchemas(controller)).toEqual(['NotesController.create(#0)']);
    expect(pipesOf(controller)).toEqual([{ schema }]);
  });

  it('names the parameters, the installed Nest and what to change', () => {
    const error = new ParamSchemaUnsupportedError(['NotesController.create(#0)'], '11.1.0');
    expect(error.message).toBe(
      "NotesController.create(#0): { schema } on Nest's @Body, @Query or @Param needs Nest 12 " +
        '(this application has @nestjs/core 11.1.0); upgrade @nestjs/common and @nestjs/core ' +
        'to ^12, or use @Arg(name, { schema }) or a DTO class',
    );
  });

  it('finds nothing in what Nest 12 records', () => {
    expect(misreadSchemas(controllerAsRecordedBy(12))).toEqual([]);
  });
});
