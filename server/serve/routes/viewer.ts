import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../security';

/** Shown when the viewer was never built (a source checkout before `npm run build`). */
const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Involut</title>
<p>The Involut viewer is not built. Run <code>npm run build</code> and reload.</p>`;

/** The built viewer (`dist/web`), with `index.html` for every other page path so the app can route. */
export async function viewerRoutes(app: FastifyInstance, webRoot: string | null): Promise<void> {
  const built = webRoot !== null && existsSync(path.join(webRoot, 'index.html'));
  if (built) await app.register(fastifyStatic, { root: webRoot, prefix: '/', index: 'index.html', dotfiles: 'ignore' });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return refuse(reply, 404, 'not-found', `No ${request.method} ${request.url.split('?', 1)[0]} here.`);
    }
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
