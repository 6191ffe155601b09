// POST /echo as a one-file toolkit route: `app.route` with a declared, type-checked parameter.
import { App } from 'toolkit';
import { announce } from '../support/announce.js';

const app = new App({ logger: false });
app.route('/echo', { methods: ['POST'], params: { message: 'string' } }, ({ message }) => ({
  echo: message,
}));
announce(await app.run(), () => app.close());
