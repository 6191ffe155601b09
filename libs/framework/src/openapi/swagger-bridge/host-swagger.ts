import { createRequire } from 'node:module';
import type * as Swagger from '@nestjs/swagger';

/** The parts of `@nestjs/swagger` the bridge uses: its public decorators and helpers. */
export type SwaggerPackage = Pick<
  typeof Swagger,
  | 'ApiBody'
  | 'ApiExtraModels'
  | 'ApiOperation'
  | 'ApiParam'
  | 'ApiProperty'
  | 'ApiPropertyOptional'
  | 'ApiQuery'
  | 'ApiResponse'
  | 'DECORATORS'
  | 'getSchemaPath'
>;

const requireFromToolkit = createRequire(import.meta.url);
const PACKAGE = '@nestjs/swagger';

/** `null` once looked up and absent; `undefined` before the first look-up. */
let loaded: SwaggerPackage | null | undefined;

/**
 * The application's `@nestjs/swagger`, or `undefined` when it is not installed. Looked up on the
 * first toolkit route decorated, not when each route is, and only once: an app without swagger
 * pays one failed resolution and logs nothing. Resolved from toolkit's own location, which in an
 * installed app is the app's `node_modules`, so it is the copy the app's `SwaggerModule` reads.
 *
 * Swagger 12 is an ES module, which Node `require`s from 20.19 and 22.12 (what swagger 12 itself
 * needs) but jest's ESM mode only from Node 24.9: in a jest run on an older Node the bridge
 * stands aside, so those tests see toolkit routes undocumented in a swagger document, and
 * nothing else changes. A swagger that fails to load for another reason is an error.
 */
export function hostSwagger(): SwaggerPackage | undefined {
  if (loaded === undefined) loaded = load();
  return loaded ?? undefined;
}

function load(): SwaggerPackage | null {
  try {
    requireFromToolkit.resolve(PACKAGE);
  } catch (error) {
    if (codeOf(error) === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
  try {
    return requireFromToolkit(PACKAGE) as SwaggerPackage;
  } catch (error) {
    if (codeOf(error) === 'ERR_REQUIRE_ESM') return null;
    throw error;
  }
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
