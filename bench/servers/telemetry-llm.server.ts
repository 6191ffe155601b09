// The app of the telemetry suite: a JSON route, an LLM answer as JSON and an LLM answer streamed
// with `@Stream()`, all on the offline `echo` model (no network, no key). The suite starts it
// with telemetry off or on through the environment (`TOOLKIT_TELEMETRY_*`,
// `OTEL_EXPORTER_OTLP_ENDPOINT`), so the code measured is the same in every run.
import { Controller } from '@nestjs/common';
import { App, Arg, LLM, RequestSignal, Route, Stream } from 'toolkit';
import { announce } from '../support/announce.js';

@Controller()
class WatchedController {
  constructor(private readonly llm: LLM) {}

  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('message') message: string): { echo: string } {
    return { echo: message };
  }

  @Route('/ask', { methods: ['POST'] })
  async ask(@Arg('message') message: string): Promise<{ response: string }> {
    return { response: await this.llm.chat(message) };
  }

  @Route('/chat', { methods: ['POST'] })
  @Stream()
  async *chat(
    @Arg('message') message: string,
    @RequestSignal() signal: AbortSignal,
  ): AsyncGenerator<string> {
    yield* await this.llm.chat(message, { stream: true, signal });
  }
}

const app = new App({
  controllers: [WatchedController],
  logger: false,
  cwd: '/nonexistent',
  config: { llm: { default_model: 'echo', echo_delay_ms: 0 } },
});
announce(await app.run(), () => app.close());
