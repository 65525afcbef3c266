import type { FastifyInstance } from 'fastify';
import { HandOverPut, type HandOverResult, type WaitingState } from '../../../schemas/api';
import type { AppContext } from '../app';
import { NoteRefused } from '../../review/notes-store';
import { refuse } from '../security';
import { readWaiting } from '../../review/waiting';

/**
 * `POST /api/handover`: the reader hands the notes over to the agent; a record is added
 * to notes.json's `handedOver` (see NotesStore.handOver), which `involut notes --wait` watches for.
 * `GET /api/waiting`: whether `involut notes --wait` is waiting now.
 */
export function handOverRoutes(api: FastifyInstance, context: AppContext): void {
  api.post('/handover', async (request, reply) => {
    const body = HandOverPut.safeParse(request.body);
    if (!body.success)
      return refuse(reply, 400, 'bad-handover', 'A hand-over is sent as { open: <number of open notes> }.');
    const material = await context.files.read('material');
    const round = material.state.state === 'ok' ? material.state.data.source.round : undefined;
    try {
      const handedOver = await context.notes.handOver(round, body.data.open);
      // Told to every viewer, the one that handed over too: none holds the new record yet.
      context.hub.broadcast({ type: 'changed', file: 'notes' });
      return { handedOver } satisfies HandOverResult;
    } catch (error) {
      if (error instanceof NoteRefused) return refuse(reply, error.status, error.code, error.message, error.extra);
      throw error;
    }
  });

  api.get('/waiting', async (): Promise<WaitingState> => ({ waiting: await readWaiting(context.files.review) }));
}
