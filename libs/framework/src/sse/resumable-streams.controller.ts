import { Controller, Inject, type Type } from '@nestjs/common';
import { NotFoundError } from '../http/http.errors.js';
import { Arg } from '../routing/arg.decorator.js';
import { routeInfo } from '../routing/route-info.js';
import { Route } from '../routing/route.decorator.js';
import { Session } from '../session/session.decorator.js';
import { ResumableStreams } from './resumable-streams.js';

/**
 * `DELETE /streams/:id` cancels a resumable stream (`@Stream({ resumable: true })`) in whichever
 * process runs it: 204, or 404 when it is unknown, expired or over. `App` serves it; add it to a
 * module's controllers to serve it elsewhere. Stream ids are 128 random bits, known only to the
 * client that started the stream; a stream owned by a session (`owner: 'session'`) is cancelled
 * only by that session.
 */
@Controller()
export class ResumableStreamsController {
  constructor(@Inject(ResumableStreams) private readonly streams: ResumableStreams) {}

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
