import { afterAll, describe, expect, it } from '@jest/globals';
import { createTestingApp, MockLLM, TestClient } from 'toolkit/testing';
import { app } from '../app.js';
import { AgentController } from '../src/agent.controller.js';
import { stylesProvider } from '../src/styles.js';
import { evaluateArithmetic } from '../src/tools/arithmetic.js';
import { CalculatorTools } from '../src/tools/calculator.tools.js';
import { ClockTools } from '../src/tools/clock.tools.js';
import { NotesTools } from '../src/tools/notes.tools.js';

describe('the calculator', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['10 / 4', 2.5],
    ['7 % 4', 3],
    ['1.5e3 + .5', 1500.5],
  ])('evaluates %s to %d', (expression, expected) => {
    expect(evaluateArithmetic(expression)).toBe(expected);
  });

  it.each([
    ['2 +', /expected a number or "\(" but found the end/],
    ['process.exit()', /unexpected "p" at position 1/],
    ['(1 + 2', /expected "\)"/],
    ['1 / 0', /division by zero/],
    ['10 ^ 400', /not a finite number/],
    ['', /empty/],
    ['('.repeat(60) + '1' + ')'.repeat(60), /nested parentheses/],
  ])('refuses %j with a clear reason', (expression, reason) => {
    expect(() => evaluateArithmetic(expression)).toThrow(reason);
  });
});

describe('the agent uses its tools (offline echo model: "/tool NAME {json}")', () => {
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('POST /chat runs a tool and lists the call with its result', async () => {
    const res = await client.post('/chat', {
      json: { message: '/tool calculator {"expression": "2 * (3 + 4)"}' },
    });
    expect(res.json()).toEqual({
      response: 'Tool calculator returned 14.',
      tool_calls: [
        expect.objectContaining({
          name: 'calculator',
          args: { expression: '2 * (3 + 4)' },
          result: 14,
        }),
      ],
    });
  });

  it('POST /chat remembers its tool steps too: GET /history shows them', async () => {
    const res = await client.post('/chat', {
      json: { message: '/tool calculator {"expression": "3 * 3"}' },
    });
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const history = await client.get('/history', { headers: { cookie } });
    expect(history.json<{ messages: unknown[] }>().messages[1]).toEqual({
      role: 'assistant',
      content: 'Tool calculator returned 9.',
      tools: [
        {
          id: expect.any(String),
          name: 'calculator',
          args: { expression: '3 * 3' },
          result: 9,
          step: 1,
        },
      ],
    });
  });

  it('feeds a tool error back to the model instead of failing the request', async () => {
    const res = await client.post('/chat', {
      json: { message: '/tool calculator {"expression": "1 / 0"}' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ response: string }>().response).toMatch(/failed.*division by zero/);
    const bad = await client.post('/chat', {
      json: { message: '/tool current_time {"timezone": "Mars/Olympus"}' },
    });
    expect(bad.json<{ response: string }>().response).toMatch(/unknown time zone/);
  });

  it('POST /chat/stream relays tool calls, results and text as events of their own type', async () => {
    const res = await client.post('/chat/stream', {
      json: { message: '/tool calculator {"expression": "6*7"}' },
    });
    const events = res.events();
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['tool-call', 'tool-result', 'text-delta', 'finish']),
    );
    const result = events.find((e) => e.event === 'tool-result');
    expect(JSON.parse(result!.data)).toMatchObject({ name: 'calculator', result: 42 });
    const text = events.filter((e) => e.event === 'text-delta').map((e) => e.data);
    expect(text.join('')).toBe('Tool calculator returned 42.');
  });

  it('GET /history keeps the tool steps of each streamed answer, a failed one with its error', async () => {
    const res = await client.post('/chat/stream', {
      json: { message: '/tool calculator {"expression":"2+3"}' },
    });
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const history = await client.get('/history', { headers: { cookie } });
    expect(history.json()).toEqual({
      messages: [
        { role: 'user', content: '/tool calculator {"expression":"2+3"}' },
        {
          role: 'assistant',
          content: 'Tool calculator returned 5.',
          tools: [
            {
              id: expect.any(String),
              name: 'calculator',
              args: { expression: '2+3' },
              result: 5,
              step: 1,
            },
          ],
        },
      ],
    });
    const next = await client.post('/chat/stream', {
      json: { message: '/tool calculator {"expression":"1/0"}' },
      headers: { cookie },
    });
    expect(next.statusCode).toBe(200);
    const after = await client.get('/history', { headers: { cookie } });
    const steps = after.json<{ messages: { tools?: { error?: string }[] }[] }>().messages[3].tools;
    expect(steps).toEqual([
      expect.objectContaining({ error: expect.stringMatching(/division by zero/) }),
    ]);
  });

  it("keeps notes per conversation: another session never finds this one's", async () => {
    const saved = await client.post('/chat', {
      json: { message: '/tool save_note {"text": "The launch is on Friday"}' },
    });
    const cookie = String(saved.headers['set-cookie']).split(';')[0];
    expect(saved.json<{ response: string }>().response).toMatch(/"notes":1/);
    const found = await client.post('/chat', {
      json: { message: '/tool search_notes {"query": "when is the launch?"}' },
      headers: { cookie },
    });
    expect(found.json<{ response: string }>().response).toContain('The launch is on Friday');
    const stranger = await client.post('/chat', {
      json: { message: '/tool search_notes {"query": "launch"}' },
    });
    expect(stranger.json<{ response: string }>().response).toContain('no saved note matches');
  });
});

describe('ClockTools', () => {
  it('gives the instant in UTC and in the time zone asked for', () => {
    const clock = new ClockTools();
    clock.now = () => new Date('2026-03-01T12:00:00Z');
    expect(clock.currentTime({ timezone: 'Asia/Tokyo' })).toEqual({
      iso: '2026-03-01T12:00:00.000Z',
      timezone: 'Asia/Tokyo',
      local: expect.stringMatching(/Sunday,? 1 March 2026.*21:00:00/),
    });
  });
});

describe('AgentController with a MockLLM that calls a tool', () => {
  it('runs the call the model asks for and answers with the second reply', async () => {
    const llm = new MockLLM({
      responses: [
        { toolCalls: [{ name: 'calculator', args: { expression: '1200 * 0.15' } }] },
        'It comes to 180.',
      ],
    });
    const { client, close } = await createTestingApp({
      controllers: [AgentController],
      providers: [stylesProvider, CalculatorTools, ClockTools, NotesTools],
      llm,
    });
    const res = await client.post('/chat', { json: { message: 'What is 15% of 1200?' } });
    expect(res.json()).toEqual({
      response: 'It comes to 180.',
      tool_calls: [expect.objectContaining({ name: 'calculator', result: 180 })],
    });
    expect(llm.calls).toContainEqual(['tool', expect.objectContaining({ name: 'calculator' })]);
    await close();
  });
});
