import { App } from '../../framework/src/index.js';

/**
 * A ready-made app for trying the test utilities: `GET /health` → `{ status: "healthy" }` and
 * `POST /echo { message }` → `{ echo: message }`.
 *
 * @example
 * const client = new TestClient(createMockApp());
 * (await client.get('/health')).json(); // { status: 'healthy' }
 */
export function createMockApp(): App {
  const app = new App({ title: 'mock-app', version: '0.0.0', logger: false });
  app.route('/health', { methods: ['GET'] }, () => ({ status: 'healthy' }));
  app.route('/echo', { methods: ['POST'], params: { message: 'any' } }, ({ message }) => ({
    echo: message,
  }));
  return app;
}
