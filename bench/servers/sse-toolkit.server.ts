// `/events` with `@Stream()`: 200 events of 20 bytes per request, on POST (as the `res.write`
// baseline) and on GET (as Nest's `@Sse()` baseline), so each row compares the same method.
import { Controller } from '@nestjs/common';
import { App, Route, Stream } from 'toolkit';
import { announce } from '../support/announce.js';
import { produce } from './sse-source.js';

@Controller()
class EventsController {
  @Route('/events', { methods: ['GET', 'POST'] })
  @Stream()
  events(): AsyncIterable<string> {
    return produce();
  }
}

const app = new App({ controllers: [EventsController], logger: false });
announce(await app.run(), () => app.close());
