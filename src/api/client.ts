import { noteRecord } from '../../schemas/note-record';
import type {
  ApiError,
  CardRounds,
  CardsState,
  CommitChanges,
  ChangedEvent,
  HandOverPut,
  HandOverResult,
  WaitingState,
  Draft,
  DraftList,
  Freshness,
  Diffs,
  Lines,
  RoundState,
  NotePut,
  NotePutResult,
  NotesState,
  SearchQuery,
  SearchResult,
  SinceLast,
  WhitespaceDiff,
} from '../../schemas/api';

/**
 * The session token the server put in the URL fragment (`#token=…`), kept for this tab's
 * reloads and for this server's other tabs: a link Involut prints (`involut notes`) carries
 * no token, and opens in the browser that has the viewer open.
 */
export function sessionToken(): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('involut:token', fromHash);
    localStorage.setItem('involut:token', fromHash);
  }
  return fromHash || sessionStorage.getItem('involut:token') || localStorage.getItem('involut:token') || '';
}

/** What an answer whose body is not JSON reads as. */
const NOT_JSON = Symbol('not JSON');

/** A refusal or failure the server explained, shown to the reader as it is. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The refusal's code (`note-conflict`, `disk-full`, …); '' when the server gave none. */
    readonly code = '',
    /** The whole answer, for refusals that carry more than a message (a NoteConflict). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** The only way the viewer talks to its server: every request carries the session token. */
export class Api {
  /** Names this page in its note writes, so it can tell its own echo from another viewer's write. */
  readonly viewerId = crypto.randomUUID();

  constructor(private token: string) {}

  /** Takes a new session token (a new URL pasted into this tab); requests from now on carry it. */
  setToken(token: string): void {
    this.token = token;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'X-Involut-Token': this.token, 'X-Involut-Viewer': this.viewerId, ...extra };
  }

  private async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(path, { ...init, headers: this.headers(init.headers as Record<string, string>) });
    const body: unknown = await response.json().catch(() => NOT_JSON);
    if (!response.ok) {
      // The server's refusals are ApiError bodies; a proxy or a crash may answer anything.
      const refusal = body === NOT_JSON ? null : body;
      const error = (refusal as Partial<ApiError> | null)?.error;
      const message = error?.message ?? `The server answered ${response.status} ${response.statusText}.`;
      throw new ApiFailure(response.status, message, error?.code ?? '', refusal);
    }
    // Not JSON to its end: the server stopped, or cut the answer off (material.json rewritten in place).
    if (body === NOT_JSON)
      throw new ApiFailure(response.status, 'The server’s answer was cut off; try again.', 'cut-off');
    return body as T;
  }

  /** The round's index: every file without its diff. */
  round = () => this.json<RoundState>('/api/round');
  /** The diffs of the files at these positions of the round's index `version`. */
  diffs = (version: string, at: readonly number[], signal?: AbortSignal) =>
    this.json<Diffs>(`/api/diffs?${new URLSearchParams({ v: version, at: at.join(',') })}`, { signal });
  cards = () => this.json<CardsState>('/api/cards');
  /** notes.json as a state, its notes in a null-prototype record so that any key (`__proto__` too) is only a key. */
  notes = async (): Promise<NotesState> => {
    const state = await this.json<NotesState>('/api/notes');
    if (state.state === 'missing') return state;
    if (state.state !== 'ok')
      return state.lastGood
        ? { ...state, lastGood: { ...state.lastGood, notes: noteRecord(Object.entries(state.lastGood.notes)) } }
        : state;
    return { ...state, data: { ...state.data, notes: noteRecord(Object.entries(state.data.notes)) } };
  };
  freshness = () => this.json<Freshness>('/api/freshness');
  /** Whether `involut notes --wait` is waiting for a hand-over now. */
  waiting = () => this.json<WaitingState>('/api/waiting');
  /** Hands the notes over to the agent: notes.json gains a `handedOver` record. */
  handOver = (open: number) =>
    this.json<HandOverResult>('/api/handover', {
      method: 'POST',
      body: JSON.stringify({ open } satisfies HandOverPut),
      headers: { 'Content-Type': 'application/json' },
    });
  sinceLast = () => this.json<SinceLast>('/api/since-last');
  cardRounds = () => this.json<CardRounds>('/api/card-rounds');
  /** What one commit of the round changed; the server answers only the round's own commits. */
  commit = (id: string) => this.json<CommitChanges>(`/api/commits/${encodeURIComponent(id)}`);
  search = (query: SearchQuery, signal?: AbortSignal) =>
    this.json<SearchResult>(`/api/search?${new URLSearchParams(query)}`, { signal });
  /** Every line of a file on one side, from the round's own git objects. */
  lines = (ref: string, side: 'before' | 'after') => this.json<Lines>(`/api/lines/${encodePath(ref)}?side=${side}`);
  /** A modified or renamed file's diff with whitespace ignored, from the round's own git objects. */
  whitespace = (ref: string) => this.json<WhitespaceDiff>(`/api/whitespace/${encodePath(ref)}`);

  putNote = (key: string, body: NotePut) =>
    this.json<NotePutResult>(`/api/notes/${encodeURIComponent(key)}`, {
      method: 'PUT',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json' },
    });

  /** The unsent drafts the server keeps for this repository (see DraftsStore). */
  drafts = () => this.json<DraftList>('/api/drafts');

  /** Hands a draft to the server to keep; an empty text forgets it. */
  putDraft = (key: string, draft: Omit<Draft, 'key'>) =>
    this.json<{ key: string }>(`/api/drafts/${encodeURIComponent(key)}`, {
      method: 'PUT',
      body: JSON.stringify(draft),
      headers: { 'Content-Type': 'application/json' },
    });

  /** URL of a before copy (`blobs/…` from material.json); images load it through `fetchObjectUrl`. */
  blobPath = (before: string) =>
    `/api/blob/${before
      .replace(/^blobs\//, '')
      .split('/')
      .map(encodeURIComponent)
      .join('/')}`;
  afterPath = (ref: string) => `/api/after/${encodePath(ref)}`;

  /** Fetches bytes with the token (an <img src> cannot send headers); the image render also counts and decodes them. */
  async blob(path: string): Promise<Blob> {
    const response = await fetch(path, { headers: this.headers() });
    if (!response.ok) throw new ApiFailure(response.status, `Could not load ${path} (${response.status}).`);
    return response.blob();
  }

  /** The bytes at `path` as an object URL for an <img>; the caller revokes it. */
  async objectUrl(path: string): Promise<string> {
    return URL.createObjectURL(await this.blob(path));
  }

  /**
   * Follows the server's change events. EventSource cannot send the token header, so the
   * stream is read with fetch; it reconnects after a pause when the server goes away.
   */
  events(onChange: (event: ChangedEvent) => void, onConnection: (up: boolean) => void): () => void {
    const controller = new AbortController();
    const run = async () => {
      while (!controller.signal.aborted) {
        try {
          const response = await fetch('/api/events', {
            headers: this.headers({ Accept: 'text/event-stream' }),
            signal: controller.signal,
          });
          if (!response.ok || !response.body) throw new Error(String(response.status));
          onConnection(true);
          await readEvents(response.body, onChange);
        } catch {
          if (controller.signal.aborted) return;
        }
        onConnection(false);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    void run();
    return () => controller.abort();
  }
}

const encodePath = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');

async function readEvents(body: ReadableStream<Uint8Array>, onChange: (event: ChangedEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      if (!data) continue;
      try {
        const event = JSON.parse(data) as ChangedEvent;
        if (event.type === 'changed') onChange(event);
      } catch {
        // A malformed event carries nothing to act on; the next one will.
      }
    }
  }
}
