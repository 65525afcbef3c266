import type { FastifyInstance } from 'fastify';
import type { Freshness } from '../../schemas/api';
import type { AppContext } from '../app';
import { captureTree } from '../git/capture';

/**
 * `GET /api/freshness`: has the working state moved since the capture? Answered by
 * capturing the tree again through a temporary index and comparing ids; requests that
 * arrive while one capture runs share its answer.
 */
export function freshnessRoutes(api: FastifyInstance, context: AppContext): void {
  let running: Promise<string> | null = null;
  api.get('/freshness', async (): Promise<Freshness> => {
    running ??= captureTree(context.repo).finally(() => {
      running = null;
    });
    const [current, material] = await Promise.all([running, context.files.materialEntries()]);
    const captured = material?.tree ?? null;
    return { fresh: captured === current, captured, current };
  });
}
