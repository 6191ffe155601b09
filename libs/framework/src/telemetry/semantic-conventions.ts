/*
 * What the OpenTelemetry semantic conventions advise for the metrics of `ToolkitMetrics`
 * (histogram buckets, the bounded set of HTTP methods), kept apart from the metrics themselves.
 */

/** OpenTelemetry's advised buckets for `http.server.request.duration`, in seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
/**
 * OpenTelemetry's advised buckets for `gen_ai.client.operation.duration` and
 * `gen_ai.client.operation.time_to_first_chunk`, in seconds.
 */
export const OPERATION_BUCKETS = [
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];
/** OpenTelemetry's advised buckets for `gen_ai.client.token.usage`. */
export const TOKEN_BUCKETS = [
  1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
];
/** Methods kept as they are; any other is `_OTHER` (OpenTelemetry's rule, which bounds the label). */
export const KNOWN_METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
]);
