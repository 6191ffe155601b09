import type { SwaggerPackage } from './host-swagger.js';

/**
 * The body of every error toolkit answers on its routes, as a swagger model: the schema is
 * `#/components/schemas/ToolkitErrorBody` in the host's document. Its properties are described
 * on first use (see {@link errorBodyModel}), so toolkit declares nothing for swagger when the
 * app does not use it.
 */
export class ToolkitErrorBody {
  /** What went wrong, for people: `Invalid parameters: text is required`. */
  error!: string;
  /** Each offending parameter of a 422 (or each message of a Nest validation error). */
  details?: { param?: string; problem: string }[];
}

let described = false;

/** {@link ToolkitErrorBody}, its properties declared with `swagger`'s `@ApiProperty` once. */
export function errorBodyModel(swagger: SwaggerPackage): typeof ToolkitErrorBody {
  if (described) return ToolkitErrorBody;
  const { prototype } = ToolkitErrorBody;
  swagger.ApiProperty({
    type: String,
    description: 'What went wrong',
    example: 'Invalid parameters: text is required',
  })(prototype, 'error');
  swagger.ApiPropertyOptional({
    type: 'array',
    description: 'Each offending parameter (422)',
    items: {
      type: 'object',
      properties: { param: { type: 'string' }, problem: { type: 'string' } },
      required: ['problem'],
    },
  })(prototype, 'details');
  described = true;
  return ToolkitErrorBody;
}
