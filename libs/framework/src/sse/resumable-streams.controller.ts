import { Controller, Inject, Res, type Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NotFoundError } from '../http/http.errors.js';
import { platformOfResponse } from '../http/platform/platform-of.js';
import { Arg } from '../routing/arg.decorator.js';
import { routeInfo } from '../routing/route-info.js';
import { Route } from '../routing/route.decorator.js';
import { Session } from '../session/session.decorator.js';
import { Stream } from '../routing/stream.decorator.js';
import { ResumableStreams } from './resumable-streams.js';
import type { SseMessageEvent } from './sse-event.js';

/**
 * `GET /streams/:id` follows a resumable stream (`@Stream({ resumable: true })`) by its id, and
 * `DELETE /streams/:id` cancels it in whichever process runs it: 204, or 404 when it is unknown,
 * expired or over. `App` serves it; add it to a
 * module's controllers to serve it elsewhere. Stream ids are 128 random bits, known only to the
 * client that started the stream; a stream owned by a session (`owner: 'session'`) is cancelled
 * only by that session.
 */
@Controller()
export class ResumableStreamsController {
  constructor(@Inject(ResumableStreams) private readonly streams: ResumableStreams) {}

  /**
   * Follows a resumable stream by its id, whatever the method of the route that started it (an
   * `EventSource` can only GET): from `Last-Event-ID` or `?lastEventId=`, else from the start;
   * 204 once nothing is left, 404 for a stream unknown, expired, or owned by another session. A
   * stream whose route has an `owner` function cannot be followed here (404).
   */
  @Route('/streams/:id', { methods: ['GET'], summary: 'Follow a resumable stream' })
  @Stream()
  follow(
    @Arg('id') id: string,
    @Session() session: string,
    @Res() reply: object,
  ): AsyncGenerator<SseMessageEvent> {
    const platform = platformOfResponse(reply);
    const req = platform.requestOf(reply) as IncomingMessage;
    return this.streams.followById(req, platform.rawResponse(reply), id, [session, undefined]);
  }

  @Route('/streams/:id', { methods: ['DELETE'], summary: 'Cancel a resumable stream' })
  async cancel(@Arg('id') id: string, @Session() session: string): Promise<void> {
    const cancelled = (await this.streams.cancel(id, session)) || (await this.streams.cancel(id));
    if (!cancelled) {
      throw new NotFoundError(`Stream ${id} is unknown, expired or over`);
    }
  }
}

/** True when a method of `controller` is a resumable `@Stream` (App then serves the cancel route). */
export function hasResumableStream(controller: Type): boolean {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto).some((name) => {
    const method = name === 'constructor' ? undefined : proto[name];
    return typeof method === 'function' && Boolean(routeInfo(method)?.stream?.resumable);
  });
}
