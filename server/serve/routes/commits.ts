import type { FastifyInstance } from 'fastify';
import type { CommitChanges } from '../../../schemas/api';
import type { AppContext } from '../app';
import { OBJECT_ID } from '../../git/blob-stream';
import { refuse } from '../security';
import { entriesBetween } from './since-last';

/**
 * `GET /api/commits/<id>`: the changes of one commit of the round, diffed by git against its
 * first parent, read only. Only an id material.json lists among the round's commits reaches
 * git, so the route cannot be used to read anything else of the repository's history.
 */
export function commitRoutes(api: FastifyInstance, context: AppContext): void {
  api.get<{ Params: { id: string } }>('/commits/:id', async (request, reply) => {
    const { id } = request.params;
    const { state } = await context.files.read('material');
    if (state.state !== 'ok')
      return refuse(reply, 404, 'not-found', 'There is no readable material.json; run `involut rounds`.');
    const commit = OBJECT_ID.test(id) ? state.data.source.commits?.find((c) => c.id === id) : undefined;
    if (!commit) {
      return refuse(
        reply,
        404,
        'not-in-round',
        `'${id.slice(0, 80)}' is not one of this round's commits; only the commits material.json lists can be read.`,
      );
    }
    const { repo } = context;
    const found = await repo.git.tryRun(['rev-parse', '--verify', '--quiet', `${id}^{commit}`]);
    if (found?.trim() !== id)
      return refuse(reply, 404, 'not-found', `Commit ${id.slice(0, 12)} is gone from git (rewritten and pruned).`);
    const parent = (await repo.git.tryRun(['rev-parse', '--verify', '--quiet', `${id}^1`]))?.trim() || null;
    const material = await entriesBetween(repo, parent ?? repo.emptyTree, id);
    const body: CommitChanges = { id, subject: commit.subject, parent, material };
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
