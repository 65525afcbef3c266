import type { FastifyInstance } from 'fastify';
import type { Freshness } from '../../../schemas/api';
import type { AppContext } from '../app';
import { movedSince } from '../../round/freshness';
import { involutCommand } from '../../cli/invocation';

/**
 * `GET /api/freshness`: has the working state moved since the capture? Answered by git
 * reading only (see `movedSince`; `fresh: null` when it cannot tell): a request never writes an object, a pack or a ref.
 * Requests that arrive while one check runs share its answer.
 */
export function freshnessRoutes(api: FastifyInstance, context: AppContext): void {
  let running: Promise<Freshness> | null = null;
  api.get('/freshness', async (): Promise<Freshness> => {
    running ??= check(context).finally(() => {
      running = null;
    });
    return running;
  });
}

async function check(context: AppContext): Promise<Freshness> {
  const command = involutCommand();
  const captured = (await context.files.materialEntries())?.tree ?? null;
  if (captured === null) return { fresh: false, captured, command };
  const moved = await movedSince(context.repo, captured);
  return { fresh: moved === null ? null : !moved, captured, command };
}
