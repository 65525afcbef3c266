import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { InvolutError } from '../cli/errors';
import type { EventHub } from './event-hub';
import type { Repo } from '../git/repo';
import type { DraftsStore } from '../review/drafts-store';
import type { NotesStore } from '../review/notes-store';
import { RoundChanged } from '../review/material-index';
import { PathRefused } from './paths';
import type { ReviewFiles } from '../review/review-files';
import { byteRoutes } from './routes/bytes';
import { cardRoundRoutes } from './routes/card-rounds';
import { commitRoutes } from './routes/commits';
import { eventRoutes } from './routes/events';
import { fileRoutes } from './routes/files';
import { freshnessRoutes } from './routes/freshness';
import { handOverRoutes } from './routes/handover';
import { healthRoutes } from './routes/health';
import { NOTE_BODY_LIMIT, noteRoutes } from './routes/notes';
import { lineRoutes } from './routes/lines';
import { searchRoutes } from './routes/search';
import { sinceLastRoutes } from './routes/since-last';
import { viewerRoutes } from './routes/viewer';
import { whitespaceRoutes } from './routes/whitespace';
import {
  guardRequests,
  isApiPath,
  refuse,
  requireToken,
  securityHeaders,
  type Refusal,
  type SecurityOptions,
} from './security';

/** What every route reads or writes through: the repository, the review files, the notes writer, the event streams. */
export interface AppContext {
  repo: Repo;
  files: ReviewFiles;
  notes: NotesStore;
  /** The reader's unsent drafts, kept per repository outside it. */
  drafts: DraftsStore;
  hub: EventHub;
}

export interface AppOptions extends AppContext, SecurityOptions {
  /** The built viewer's folder (`dist/web`); null serves a page that says to build it. */
  webRoot: string | null;
  /** Called with failures the API answers as 500, for the terminal. Default: none. */
  onInternalError?: (error: unknown) => void;
}

/** Codes for the refusals Fastify itself makes (body parsing, size, media type). */
const CLIENT_ERRORS: Record<number, string> = {
  400: 'bad-request',
  404: 'not-found',
  413: 'body-too-large',
  415: 'unsupported-media-type',
};

function noSchemas(): never {
  throw new Error('Involut routes validate with zod; a Fastify route schema is not supported.');
}

/** Registers every route and guard and returns the app without listening (tests use `app.inject()`). */
export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  // The router refuses some requests (a path that is not valid percent-encoding) before any
  // hook runs: they still get the Host check, the security headers and Involut's error shape.
  let hostRefusal: ((request: FastifyRequest) => Refusal | null) | null = null;
  const app = Fastify({
    logger: false,
    bodyLimit: NOTE_BODY_LIMIT,
    // Requests are validated with zod, in the routes: Fastify's own JSON-schema compilers
    // (ajv, fast-json-stringify) are never needed, and would cost every start 60 ms to load;
    // the build leaves them out of the bundle (vite.config.ts).
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
    frameworkErrors: (error, request, reply) => {
      reply.headers(securityHeaders(isApiPath(request.raw.url ?? '')));
      const refusal = hostRefusal?.(request);
      const bad = error.code === 'FST_ERR_BAD_URL';
      if (refusal) void refuse(reply, refusal.status, refusal.code, refusal.message);
      else
        void refuse(
          reply,
          400,
          bad ? 'bad-path' : 'bad-request',
          bad ? 'The request path is not valid percent-encoding.' : 'The request could not be read.',
        );
    },
  });
  const context: AppContext = {
    repo: options.repo,
    files: options.files,
    notes: options.notes,
    drafts: options.drafts,
    hub: options.hub,
  };
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof PathRefused) return refuse(reply, 400, 'bad-path', error.message);
    if (error instanceof RoundChanged) return refuse(reply, 409, 'round-changed', error.message);
    if (error instanceof InvolutError && error.code === 'review-unsafe')
      return refuse(reply, 403, error.code, error.message);
    const status = error.statusCode ?? 500;
    if (status < 500) return refuse(reply, status, CLIENT_ERRORS[status] ?? 'bad-request', error.message);
    options.onInternalError?.(error);
    const message =
      error instanceof InvolutError ? error.message : 'Involut failed to answer; the terminal running it shows why.';
    return refuse(reply, 500, 'internal', message);
  });
  hostRefusal = guardRequests(app, options);
  await app.register(
    async (api) => {
      api.addHook('onRequest', requireToken(options.tokenHash));
      // The round's index and diffs are megabytes of text, compressed on the reader's own
      // machine while its page draws: at the fastest levels, 10 MB of diffs take 85 ms of
      // brotli (490 ms at quality 4, seconds at its default 11) for a fifth more bytes.
      await api.register(compress, {
        encodings: ['br', 'gzip'],
        threshold: 1024,
        brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
        zlibOptions: { level: 1 },
      });
      fileRoutes(api, context);
      noteRoutes(api, context);
      handOverRoutes(api, context);
      byteRoutes(api, context);
      eventRoutes(api, context);
      freshnessRoutes(api, context);
      healthRoutes(api, context);
      sinceLastRoutes(api, context);
      searchRoutes(api, context);
      lineRoutes(api, context);
      cardRoundRoutes(api, context);
      commitRoutes(api, context);
      whitespaceRoutes(api, context);
    },
    { prefix: '/api' },
  );
  await viewerRoutes(app, options.webRoot);
  // On close, keep-alive connections would keep `close()` waiting forever: event streams
  // end at once, and a request still running answers with `Connection: close`.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    options.hub.closeAll();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  return app;
}
