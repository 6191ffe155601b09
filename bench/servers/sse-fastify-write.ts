import type { FastifyReply } from 'fastify';
import { produce } from './sse-source.js';

/**
 * What a hand-written Nest-Fastify stream does: hijacks the reply and writes every event of
 * {@link produce} straight to the raw Node response.
 */
export async function writeEvents(reply: FastifyReply): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  for await (const chunk of produce()) res.write(`event: message\ndata: ${chunk}\n\n`);
  res.end();
}
