import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app';
import { securityHeaders } from '../security';

/**
 * `GET /api/events`: Server-Sent Events, one `changed` event per settled change of a
 * review file, naming the file and nothing more; the viewer refetches it. (The token
 * travels in a header, so the viewer reads this stream with fetch, not EventSource.)
 */
export function eventRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/events', { exposeHeadRoute: false }, (_request, reply) => {
    reply.hijack();
    context.hub.add(reply.raw, securityHeaders(true));
  });
}
