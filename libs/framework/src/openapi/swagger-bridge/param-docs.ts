import type { HttpMethod } from '../../routing/http-method.js';
import type { NormalizedParam } from '../../routing/param-spec.js';
import type { SwaggerPackage } from './host-swagger.js';
import { paramSchema } from '../param-schema.js';

const BODY_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/**
 * Swagger's `@ApiParam`, `@ApiQuery` and `@ApiBody` for a toolkit route's parameters, placed as
 * toolkit's own OpenAPI document places them: every `:name` of the route's path is a required
 * path parameter (typed by its `@Arg` if it has one, else a string); a parameter with `in` is
 * where `in` says; any other is a property of the JSON body when every method of the route takes
 * one (POST, PUT, PATCH), else a query parameter (which the binder also reads on those methods,
 * so a route answering GET and POST documents its parameters in the query). The body is one
 * object schema whose `required` lists the required properties.
 *
 * A parameter of the controller's own path (`@Controller(':org')`) is not known when `@Route`
 * runs: declare its `@Arg` with `in: 'path'`.
 */
export function parameterDecorators(
  swagger: SwaggerPackage,
  path: string,
  methods: readonly HttpMethod[],
  params: readonly NormalizedParam[],
): MethodDecorator[] {
  const pathNames = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const inBody = methods.every((method) => BODY_METHODS.includes(method));
  const decorators: MethodDecorator[] = [];
  const bodyProperties: Record<string, ReturnType<typeof paramSchema>> = {};
  const required: string[] = [];
  for (const name of pathNames) {
    const param = params.find((p) => p.name === name && (p.in === undefined || p.in === 'path'));
    decorators.push(
      swagger.ApiParam(
        param
          ? { ...parameterOptions(param), required: true }
          : { name, schema: { type: 'string' } },
      ),
    );
  }
  for (const param of params) {
    if (pathNames.includes(param.name) && (param.in === undefined || param.in === 'path')) continue;
    const where = param.in ?? (inBody ? 'body' : 'query');
    if (where === 'body') {
      bodyProperties[param.name] = paramSchema(param);
      if (param.required) required.push(param.name);
    } else if (where === 'path') {
      decorators.push(swagger.ApiParam({ ...parameterOptions(param), required: true }));
    } else {
      decorators.push(swagger.ApiQuery(parameterOptions(param)));
    }
  }
  if (Object.keys(bodyProperties).length > 0) {
    decorators.push(
      swagger.ApiBody({
        required: required.length > 0,
        schema: {
          type: 'object',
          properties: bodyProperties,
          ...(required.length > 0 ? { required } : {}),
        },
      }),
    );
  }
  return decorators;
}

/** A path or query parameter: its description on the parameter, where swagger UI shows it. */
function parameterOptions(param: NormalizedParam) {
  const { description, ...schema } = paramSchema(param);
  return {
    name: param.name,
    required: param.required,
    schema,
    ...(description === undefined ? {} : { description }),
  };
}
