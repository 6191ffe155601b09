import { Controller, Header } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { Route } from 'toolkit';

const PAGE = readFileSync(new URL('../public/index.html', import.meta.url), 'utf8');

/** Serves the chat page: plain HTML and script, no build step, nothing from a CDN. */
@Controller()
export class ChatPageController {
  @Route('/', { methods: ['GET'] })
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }
}
