// POST /events with `@Stream()`: 200 events of 20 bytes per request.
import { Controller } from '@nestjs/common';
import { App, Route, Stream } from 'toolkit';
import { announce } from '../support/announce.js';
import { produce } from './sse-source.js';

@Controller()
class EventsController {
  @Route('/events', { methods: ['POST'] })
  @Stream()
  events(): AsyncIterable<string> {
    return produce();
  }
}

const app = new App({ controllers: [EventsController], logger: false });
announce(await app.run(), () => app.close());
