import { SetMetadata } from '@nestjs/common';
import type { SchemaInput } from '../../../providers/src/index.js';

/** Metadata key of {@link Tool}. */
export const TOOL_METADATA = 'toolkit:tool';

/** Options of {@link Tool}. */
export interface ToolOptions {
  /** Name the model calls it by. @default the method name */
  name?: string;
  /** What the tool does and when to use it, for the model. */
  description: string;
  /** JSON Schema (or Standard Schema, e.g. zod) of the arguments object the method receives. */
  parameters: SchemaInput;
}

/**
 * Marks a method of an injectable provider as a tool the model may call. The method receives
 * the validated arguments and `{ signal, callId }`, and may use the provider's injected
 * services. Collect the tools with the injectable `ToolRegistry` (`all()` or `pick(...)`).
 *
 * @example
 * @Injectable()
 * class MathTools {
 *   @Tool({ description: 'Adds two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } })
 *   add({ a, b }: { a: number; b: number }) {
 *     return a + b;
 *   }
 * }
 */
export const Tool = (options: ToolOptions): MethodDecorator => SetMetadata(TOOL_METADATA, options);
