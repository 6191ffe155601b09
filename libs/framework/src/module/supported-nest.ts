/**
 * The Nest versions toolkit runs on (`@nestjs/core`, and the other `@nestjs/*` packages with
 * it): the range of its peer dependencies, and what the start-up check compares against.
 */
export const SUPPORTED_NEST_RANGE = '^11.1.0 || ^12.0.0';
