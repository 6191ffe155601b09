// POST /echo as a toolkit controller route: `@Route` + `@Arg` (the parameter is type-checked).
import { Controller } from '@nestjs/common';
import { App, Arg, Route } from 'toolkit';
import { announce } from '../support/announce.js';

@Controller()
class EchoController {
  @Route('/echo', { methods: ['POST'] })
  echo(@Arg('message') message: string): { echo: string } {
    return { echo: message };
  }
}

const app = new App({ controllers: [EchoController], logger: false });
announce(await app.run(), () => app.close());
