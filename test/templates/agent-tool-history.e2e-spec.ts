import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HealthController } from 'toolkit';
import {
  startFakeLlmServer,
  type FakeLlmServer,
} from '../../libs/providers/test/support/fake-llm.server.js';
import { AgentController } from '../../templates/agent/src/agent.controller.js';
import { ChatController } from '../../templates/agent/src/chat.controller.js';
import { stylesProvider } from '../../templates/agent/src/styles.js';
import { CalculatorTools } from '../../templates/agent/src/tools/calculator.tools.js';

const KEYS = ['OPENAI_API_KEY', 'OPENAI_BASE_URL'] as const;

describe('the agent template keeps tool steps in memory', () => {
  let fake: FakeLlmServer;
  let app: App;
  let server: Server;
  let url: string;
  const saved: Partial<Record<(typeof KEYS)[number], string>> = {};

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    for (const key of KEYS) saved[key] = process.env[key];
    process.env.OPENAI_API_KEY = 'sk-test-tool-history';
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    app = new App({
      logger: false,
      cwd: '/nonexistent',
      version: '0.1.0',
      controllers: [HealthController, AgentController, ChatController],
      providers: [stylesProvider, CalculatorTools],
      config: { llm: { default_model: 'gpt-4o-mini', max_retries: 0 } },
    });
    server = await app.run({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => fake.reset());
  afterAll(async () => {
    server.closeAllConnections();
    await app.close();
    await fake.close();
    for (const key of KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  });

  const ask = (message: string, cookie = '') =>
    fetch(`${url}/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ message }),
    });

  it('GET /history returns the steps, and the next turn sends them to the model', async () => {
    fake.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'call_1', name: 'calculator', arguments: { expression: '2+3' } }],
      },
      { kind: 'reply', text: 'It is 5.' },
      { kind: 'reply', text: 'Still 5.' },
    );
    const first = await ask('What is 2+3?');
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    expect(await first.text()).toContain('event: tool-result');

    const history = await fetch(`${url}/history`, { headers: { cookie } });
    expect(await history.json()).toEqual({
      messages: [
        { role: 'user', content: 'What is 2+3?' },
        {
          role: 'assistant',
          content: 'It is 5.',
          tools: [
            { id: 'call_1', name: 'calculator', args: { expression: '2+3' }, result: 5, step: 1 },
          ],
        },
      ],
    });

    await (await ask('And again?', cookie)).text();
    const next = fake.requests.at(-1)!.body.messages as Record<string, unknown>[];
    expect(next.slice(1)).toEqual([
      { role: 'user', content: 'What is 2+3?' },
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'calculator', arguments: '{"expression":"2+3"}' },
          },
        ],
      }),
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
      { role: 'assistant', content: 'It is 5.' },
      { role: 'user', content: 'And again?' },
    ]);
  });
});
