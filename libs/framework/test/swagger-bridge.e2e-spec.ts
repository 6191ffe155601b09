/**
 * A host application that documents itself with `@nestjs/swagger` gets toolkit's routes in its
 * swagger document as toolkit answers them: `@Arg` parameters in the path, query or JSON body,
 * `@Stream` answers as `text/event-stream`, and toolkit's `{ "error" }` body for errors. Its
 * own routes are documented exactly as they are without toolkit.
 *
 * The host (fixtures/swagger-host.ts) runs in a plain Node process: toolkit loads the app's
 * swagger with `require()`, and swagger 12 is an ES module, which jest's ESM mode can `require`
 * only from Node 24.9 (before that, the bridge stands aside inside jest: see host-swagger.ts).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import { fileURLToPath } from 'node:url';
import { runTypeScript } from './support/typescript-process.js';

const HOST = fileURLToPath(new URL('./fixtures/swagger-host.ts', import.meta.url));

type Operation = {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: object }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: object }> }>;
};

function operation(doc: OpenAPIObject, path: string, method: string): Operation {
  const item = doc.paths[path] as Record<string, Operation> | undefined;
  if (!item?.[method]) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  return item[method];
}

const ERROR_JSON = {
  'application/json': { schema: { $ref: '#/components/schemas/ToolkitErrorBody' } },
};

describe('toolkit routes in a host swagger document', () => {
  let doc: OpenAPIObject;
  let without: OpenAPIObject;

  beforeAll(async () => {
    ({ withToolkit: doc, without } = JSON.parse(await runTypeScript(HOST)) as {
      withToolkit: OpenAPIObject;
      without: OpenAPIObject;
    });
  }, 90_000);

  it('documents @Arg parameters in the JSON body, the query and the path', async () => {
    const translate = operation(doc, '/ai/translate', 'post');
    expect(translate.summary).toBe('Translate a text');
    expect(translate.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              text: { type: 'string', maxLength: 2000, description: 'What to translate' },
              target_lang: { type: 'string', default: 'Spanish', enum: ['Spanish', 'French'] },
            },
            required: ['text'],
          },
        },
      },
    });
    expect(translate.parameters).toEqual([
      { name: 'dry_run', in: 'query', required: false, schema: { type: 'boolean' } },
    ]);

    const item = operation(doc, '/ai/items/{id}', 'get');
    expect(item.requestBody).toBeUndefined();
    expect(item.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, default: 10 },
      },
    ]);
  });

  it('documents the success status toolkit answers, and SSE as text/event-stream', async () => {
    // 200 for a POST route (swagger's default would be 201), or the method's @HttpCode.
    expect(operation(doc, '/ai/translate', 'post').responses['200']).toEqual({ description: '' });
    expect(operation(doc, '/ai/translate', 'post').responses['201']).toBeUndefined();
    expect(operation(doc, '/ai/accept', 'post').responses['202']).toEqual({ description: '' });

    const sse = {
      description: 'Server-Sent Events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
    // Whichever of @Route and @Stream is written first.
    expect(operation(doc, '/ai/words', 'post').responses['200']).toEqual(sse);
    expect(operation(doc, '/ai/letters', 'get').responses['200']).toEqual(sse);
    expect(operation(doc, '/ai/letters', 'get').parameters).toEqual([
      { name: 'word', in: 'query', required: true, schema: { type: 'string' } },
    ]);
  });

  it("documents toolkit's { error } body: 422 where parameters are checked, 4XX and 5XX", async () => {
    const translate = operation(doc, '/ai/translate', 'post').responses;
    expect(Object.keys(translate).sort()).toEqual(['200', '422', '4XX', '5XX']);
    expect(translate['422']).toEqual({ description: 'Invalid parameters', content: ERROR_JSON });
    expect(translate['4XX']).toEqual({ description: 'Client error', content: ERROR_JSON });
    expect(translate['5XX']).toEqual({ description: 'Server error', content: ERROR_JSON });
    // A route with no toolkit-checked parameter never answers 422.
    expect(Object.keys(operation(doc, '/ai/ping', 'get').responses).sort()).toEqual([
      '200',
      '4XX',
      '5XX',
    ]);

    expect(doc.components?.schemas?.ToolkitErrorBody).toEqual({
      type: 'object',
      properties: {
        error: {
          type: 'string',
          description: 'What went wrong',
          example: 'Invalid parameters: text is required',
        },
        details: {
          type: 'array',
          description: 'Each offending parameter (422)',
          items: {
            type: 'object',
            properties: { param: { type: 'string' }, problem: { type: 'string' } },
            required: ['problem'],
          },
        },
      },
      required: ['error'],
    });
  });

  it("keeps the route's own swagger decorators", async () => {
    expect(operation(doc, '/ai/described', 'get').responses['200']).toEqual({
      description: 'A note',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NoteDto' } } },
    });
  });

  it("documents the host's own routes exactly as without toolkit", async () => {
    expect(Object.keys(without.paths)).toEqual(['/own/{id}', '/own/notes']);
    for (const path of Object.keys(without.paths)) {
      expect(doc.paths[path]).toEqual(without.paths[path]);
    }
    expect(doc.components?.schemas?.NoteDto).toEqual(without.components?.schemas?.NoteDto);
  });
});
