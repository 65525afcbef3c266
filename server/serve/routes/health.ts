import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app';

/** `GET /api/health`: which repository this server serves; a second `involut` asks it before trusting the state file. */
export function healthRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/health', async () => ({ root: context.repo.root, pid: process.pid }));
}
