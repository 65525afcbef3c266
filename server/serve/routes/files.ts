import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { DiffsQuery } from '../../../schemas/api';
import { MAX_DIFFS } from '../../../schemas/limits';
import type { AppContext } from '../app';
import { RoundChanged } from '../../review/material-index';
import { refuse } from '../security';

/**
 * `GET /api/round` (material.json without its diffs), `/api/cards`, `/api/notes`: each file
 * as a state (ok, missing, invalid-json, invalid-schema); `GET /api/diffs`: the diffs of
 * the round's entries by position, for the version of the round the viewer holds.
 */
export function fileRoutes(api: FastifyInstance, context: AppContext): void {
  // A state is serialised once per version of its file: the round's index can be megabytes.
  const serialised = new WeakMap<object, string>();
  for (const [route, file] of [
    ['round', 'material'],
    ['cards', 'cards'],
    ['notes', 'notes'],
  ] as const) {
    api.get(`/${route}`, async (_request, reply) => {
      const { state } = await context.files.read(file);
      let json = serialised.get(state);
      if (json === undefined) {
        json = JSON.stringify(state);
        serialised.set(state, json);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    });
  }

  api.get('/diffs', async (request, reply) => {
    const query = DiffsQuery.safeParse(request.query);
    if (!query.success)
      return refuse(reply, 400, 'bad-query', 'Diffs are asked for by v (the round version) and at (positions, 0,1,2).');
    const at = query.data.at.split(',').map(Number);
    if (at.length > MAX_DIFFS)
      return refuse(reply, 400, 'bad-query', `One answer carries at most ${MAX_DIFFS} diffs; ask in several.`);
    const { state, index } = await context.files.read('material');
    if (state.state !== 'ok' || !index || state.version !== query.data.v) throw new RoundChanged();
    const outside = at.find((i) => i >= index.size);
    if (outside !== undefined)
      return refuse(reply, 400, 'bad-query', `The round has ${index.size} files: there is no file at ${outside}.`);
    // The Diffs shape, written out: each diff is spliced in as the JSON string material.json holds.
    const diffs = await index.diffsJson(at);
    const version = state.version;
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(`{"version":${JSON.stringify(version)},"diffs":[`);
        yield* diffs;
        yield Buffer.from(']}');
      })(),
    );
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
