export { ToolkitError } from './toolkit.error.js';
export type { ToolkitErrorOptions } from './toolkit.error.js';
export {
  BadRequestError,
  ValidationError,
  NotFoundError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ServiceUnavailableError,
  formatBytes,
} from './http.errors.js';
export type { ParamProblem } from './http.errors.js';
export { ConfigError } from './config.error.js';
