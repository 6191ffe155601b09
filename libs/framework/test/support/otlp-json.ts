/**
 * One span as an OTLP/HTTP receiver got it, decoded from the OTLP JSON encoding (the
 * `http/json` protocol: the OTLP specification's JSON mapping of its protobuf messages).
 */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** `''` for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's `SpanKind`: 1 internal, 2 server, 3 client. */
  kind: number;
  /** Start time in nanoseconds since the Unix epoch (orders siblings, see span-tree.ts). */
  startTimeUnixNano: bigint;
  attributes: Record<string, unknown>;
  /** OTLP's `StatusCode`: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The instrumentation scope's name (`toolkit`, `@opentelemetry/instrumentation-http`). */
  scope: string;
  /** The resource's attributes (`service.name`). */
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano?: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number };
}
interface OtlpTraceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/**
 * The spans of an OTLP `ExportTraceServiceRequest` in the OTLP JSON encoding (lowerCamelCase
 * field names, hex ids, 64-bit integers as strings or numbers).
 *
 * @example
 * const spans = decodeOtlpJson(JSON.parse(body));
 */
export function decodeOtlpJson(json: unknown): ReceivedSpan[] {
  const request = json as OtlpTraceRequest;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind ?? 0,
        startTimeUnixNano: BigInt(span.startTimeUnixNano ?? 0),
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        scope: scopeSpans.scope?.name ?? '',
        resource,
      })),
    );
  });
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: OtlpValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
