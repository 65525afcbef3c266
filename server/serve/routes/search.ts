import type { FastifyInstance } from 'fastify';
import { SearchQuery } from '../../../schemas/api';
import type { AppContext } from '../app';
import { BadQuery, searchMaterial } from '../search';
import { runnable } from '../../cli/invocation';
import { refuse } from '../security';

/**
 * `GET /api/search?q=&case=&word=&regex=`: matches in the current material's paths and diff
 * lines, per file, read from material.json for each search.
 */
export function searchRoutes(api: FastifyInstance, context: AppContext): void {
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
    try {
      const found = await index.withEveryDiff((diffOf) => searchMaterial(state.data.material, diffOf, query.data));
      return reply.type('application/json; charset=utf-8').send(found);
    } catch (error) {
      if (error instanceof BadQuery) return refuse(reply, 400, error.code, error.message);
      throw error;
    }
  });
}
