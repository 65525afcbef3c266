import type { FastifyInstance } from 'fastify';
import { Draft, NotePut, VIEWER_HEADER } from '../../../schemas/api';
import type { AppContext } from '../app';
import { DraftsUnreadable } from '../../review/drafts-store';
import { machineFault } from '../../cli/errors';
import { NoteRefused } from '../../review/notes-store';
import { decodeTail } from '../paths';
import { refuse } from '../security';
import { issuesOf } from '../../review/json-limits';

/** A note is a few sentences plus its title and refs; anything bigger is not a note. */
export const NOTE_BODY_LIMIT = 256 * 1024;

/** `PUT /api/notes/:key`: create, replace, or (empty text) delete one note. */
export function noteRoutes(api: FastifyInstance, context: AppContext): void {
  api.put('/notes/*', { bodyLimit: NOTE_BODY_LIMIT }, async (request, reply) => {
    const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return refuse(reply, 415, 'unsupported-media-type', 'A note is sent as application/json.');
    }
    const body = NotePut.safeParse(request.body);
    if (!body.success) {
      const first = issuesOf(body.error)[0];
      return refuse(
        reply,
        400,
        'bad-note',
        `The note body is not { text, title, refs, quote?, kind?, seen }: ${first?.path.join('.') || '(body)'}: ${first?.message}.`,
      );
    }
    try {
      const key = decodeTail(request.raw.url ?? '', '/api/notes/');
      const result = await context.notes.put(key, body.data);
      // The note is written: a draft that cannot be forgotten is logged, and the reader's note stands.
      await context.drafts.written(key, body.data.text).catch((error: Error) => request.log.warn(error.message));
      // The watcher ignores the server's own writes; other open viewers still hear of them.
      const viewer = request.headers[VIEWER_HEADER];
      context.hub.broadcast({
        type: 'changed',
        file: 'notes',
        ...(typeof viewer === 'string' && viewer.length <= 64 ? { by: viewer } : {}),
      });
      return result;
    } catch (error) {
      if (error instanceof NoteRefused) return refuse(reply, error.status, error.code, error.message, error.extra);
      throw error;
    }
  });

  api.get('/drafts', async (_request, reply) => {
    try {
      return { drafts: await context.drafts.list() };
    } catch (error) {
      if (error instanceof DraftsUnreadable) return refuse(reply, 503, 'drafts-unreadable', error.message);
      throw error;
    }
  });

  api.put('/drafts/*', { bodyLimit: NOTE_BODY_LIMIT }, async (request, reply) => {
    const key = decodeTail(request.raw.url ?? '', '/api/drafts/');
    const body = request.body as { body?: unknown; seen?: unknown } | null;
    const draft = Draft.safeParse({ key, body: body?.body, seen: body?.seen ?? null });
    if (!draft.success)
      return refuse(reply, 400, 'bad-draft', 'A draft is { body: { text, title, refs, quote?, kind? }, seen }.');
    try {
      await context.drafts.set(key, draft.data.body.text.trim() === '' ? null : draft.data);
    } catch (error) {
      if (error instanceof DraftsUnreadable) return refuse(reply, 503, 'drafts-unreadable', error.message);
      const fault = machineFault(error);
      if (fault) return refuse(reply, 507, fault.code, fault.message);
      throw error;
    }
    return { key };
  });
}
