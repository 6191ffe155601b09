import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** What an {@link OtlpSink} has received so far. */
export interface OtlpTally {
  /** `POST /v1/traces` requests answered. */
  requests: number;
  /** Request body bytes as sent (compressed when the exporter compressed). */
  bytes: number;
  /** Spans in those requests (OTLP JSON or protobuf). */
  spans: number;
}

/**
 * A stand-in OTLP/HTTP trace collector on 127.0.0.1: answers 200 to `POST /v1/traces` and counts
 * requests, bytes and spans, so a benchmark can show that tracing really exported (and what it
 * sent) without a real collector's CPU in the measurement.
 *
 * @example
 * const sink = await OtlpSink.start();
 * // OTEL_EXPORTER_OTLP_ENDPOINT=sink.url for the server under test
 * await sink.close();
 */
export class OtlpSink {
  readonly tally: OtlpTally = { requests: 0, bytes: 0, spans: 0 };

  private constructor(private readonly server: Server) {}

  /** The endpoint to export to, e.g. `http://127.0.0.1:40123` (the exporter adds `/v1/traces`). */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Starts a sink on a free port. */
  static async start(): Promise<OtlpSink> {
    const server = createServer();
    const sink = new OtlpSink(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks);
        sink.tally.requests += 1;
        sink.tally.bytes += body.length;
        const raw = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
        const json = (req.headers['content-type'] ?? '').includes('json');
        sink.tally.spans += json ? countJsonSpans(raw) : countProtobufSpans(raw);
        // An empty ExportTraceServiceResponse is a valid answer in both encodings.
        res.writeHead(200, {
          'content-type': json ? 'application/json' : 'application/x-protobuf',
        });
        res.end(json ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  /** Stops the sink. */
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface JsonTraces {
  resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
}

function countJsonSpans(body: Buffer): number {
  const request = JSON.parse(body.toString('utf8')) as JsonTraces;
  return (request.resourceSpans ?? [])
    .flatMap((r) => r.scopeSpans ?? [])
    .reduce((n, scope) => n + (scope.spans?.length ?? 0), 0);
}

/**
 * Spans in an `ExportTraceServiceRequest`: field 1 (resource_spans) → field 2 (scope_spans) →
 * field 2 (spans), read with just enough of the protobuf wire format to walk there.
 */
function countProtobufSpans(body: Buffer): number {
  let spans = 0;
  for (const resource of embedded(body, 1)) {
    for (const scope of embedded(resource, 2)) spans += embedded(scope, 2).length;
  }
  return spans;
}

/** The length-delimited values of field `wanted` in one protobuf message. */
function embedded(message: Buffer, wanted: number): Buffer[] {
  const found: Buffer[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = message[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const length = varint();
      if (field === wanted) found.push(message.subarray(at, at + length));
      at += length;
    } else throw new Error(`OTLP sink: unsupported protobuf wire type ${wire}`);
  }
  return found;
}
