// POST /echo from a plain Nest controller (no toolkit decorators) served inside a toolkit `App`:
// what the App costs a route that uses none of its features.
import { App } from 'toolkit';
import { announce } from '../support/announce.js';
import { PlainEchoController } from './plain-echo.controller.js';

const app = new App({ controllers: [PlainEchoController], logger: false });
announce(await app.run(), () => app.close());
