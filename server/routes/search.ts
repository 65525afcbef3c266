import type { FastifyInstance } from 'fastify';
import { SearchQuery } from '../../schemas/api';
import type { AppContext } from '../app';
import { BadQuery, searchMaterial } from '../search';
import { runnable } from '../invocation';
import { refuse } from '../security';

/**
 * `GET /api/search?q=&case=&word=&regex=`: matches in the current material's paths and diff
 * lines, per file. `GET /api/search/prepare`: reads the round's diffs ahead of a search (the
 * viewer asks when the search field takes the focus), so the first keystroke's answer does
 * not wait for them.
 */
export function searchRoutes(api: FastifyInstance, context: AppContext): void {
  api.get('/search/prepare', async (_request, reply) => {
    const { index } = await context.files.read('material');
    await index?.allDiffs().catch(() => {}); // a search that follows says what went wrong
    return reply.code(204).send();
  });
  api.get('/search', async (request, reply) => {
    const query = SearchQuery.safeParse(request.query);
    if (!query.success)
      return refuse(
        reply,
        400,
        'bad-query',
        'A search needs q (1 to 500 characters); case, word and regex are 0 or 1.',
      );
    const { state, index } = await context.files.read('material');
    if (state.state !== 'ok' || !index)
      return refuse(
        reply,
        404,
        'no-material',
        runnable('There is no usable material to search; run `involut rounds`.'),
      );
    const diffs = await index.allDiffs();
    const entries = state.data.material.map((entry, i) => ({ ...entry, diff: diffs[i] ?? null }));
    try {
      return reply.type('application/json; charset=utf-8').send(searchMaterial(entries, query.data));
    } catch (error) {
      if (error instanceof BadQuery) return refuse(reply, 400, error.code, error.message);
      throw error;
    }
  });
}
