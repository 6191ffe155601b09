import { describe, expect, it } from '@jest/globals';
import { tracingWanted } from './tracing-switch.js';

describe('tracingWanted', () => {
  const off = { enabled: false };
  const on = { enabled: true };

  it('is off by default, on with telemetry.enabled or an OTLP endpoint', () => {
    expect(tracingWanted(off, {})).toBe(false);
    expect(tracingWanted(on, {})).toBe(true);
    expect(tracingWanted(off, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(
      tracingWanted(off, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }),
    ).toBe(true);
    expect(tracingWanted(off, { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
  });

  it("lets OpenTelemetry's own switches turn it off", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingWanted(on, { ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted(on, { OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingWanted(on, { OTEL_SDK_DISABLED: 'false' })).toBe(true);
    expect(tracingWanted(on, { OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingWanted(on, { OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });
});
