import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { MAX_DIFFS } from '../../schemas/limits';
import { ApiFailure, type Api } from '../api/client';
import { whenIdle } from '../idle';
import type { Entry, LoadedEntry } from '../model/entry';

/** The text one request asks for at most, in characters, unless one file alone is larger. */
const BLOCK_CHARS = 1 << 20;

/**
 * The round's diffs, fetched as their files come near the screen (or are jumped to) and
 * kept for the round's version, so the page draws its first file without the whole
 * round's text. What is asked for in one moment goes out as one request (at most
 * MAX_DIFFS files and about BLOCK_CHARS of text each: a file larger than that comes
 * alone, so the small files asked with it are not kept waiting for its megabytes). A
 * round that changed on the server in the meantime is read again.
 */
export class DiffStore {
  private readonly loaded = new Map<string, string | null>();
  private readonly failed = new Map<string, string>();
  private readonly asked = new Set<string>();
  private pending: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly api: Api,
    /** The round's version (`GET /api/round`); '' when there is no round to ask for. */
    readonly version: string,
    /** Each file's position in the round's index and the length of its diff, by ref. */
    private readonly positions: ReadonlyMap<string, { at: number; chars: number }>,
    /** Called when the server holds another version of the round than this store. */
    private readonly onStale: () => void,
  ) {}

  get(ref: string): string | null | undefined {
    return this.loaded.get(ref);
  }

  /** Why the diff could not be fetched; undefined while it is fine or not asked for. */
  error(ref: string): string | undefined {
    return this.failed.get(ref);
  }

  /** Asks for the diffs of these files, once each; those not in the round are left out. */
  want(refs: Iterable<string>): void {
    const first = this.pending.length === 0;
    for (const ref of refs) {
      if (this.asked.has(ref) || !this.positions.has(ref)) continue;
      this.asked.add(ref);
      this.pending.push(ref);
    }
    if (first && this.pending.length) queueMicrotask(() => this.flush());
  }

  /** Asks again for a file whose diff could not be fetched. */
  retry(ref: string): void {
    this.failed.delete(ref);
    this.asked.delete(ref);
    this.notify();
    this.want([ref]);
  }

  /** The diffs of these files, fetched when missing (for a prompt that quotes noted lines). */
  async load(refs: string[]): Promise<Map<string, string | null>> {
    this.want(refs);
    const done = () => refs.every((ref) => this.loaded.has(ref) || this.failed.has(ref) || !this.positions.has(ref));
    while (!done()) await new Promise<void>((resolve) => this.listeners.add(once(this.listeners, resolve)));
    return new Map(refs.map((ref) => [ref, this.loaded.get(ref) ?? null]));
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private flush(): void {
    const refs = this.pending;
    this.pending = [];
    let block: string[] = [];
    let chars = 0;
    for (const ref of refs) {
      const size = this.positions.get(ref)!.chars;
      if (block.length === MAX_DIFFS || (block.length > 0 && chars + size > BLOCK_CHARS)) {
        void this.fetch(block);
        [block, chars] = [[], 0];
      }
      block.push(ref);
      chars += size;
    }
    if (block.length) void this.fetch(block);
  }

  private async fetch(refs: string[]): Promise<void> {
    try {
      const { diffs } = await this.api.diffs(
        this.version,
        refs.map((ref) => this.positions.get(ref)!.at),
      );
      refs.forEach((ref, i) => this.loaded.set(ref, diffs[i] ?? null));
    } catch (error) {
      if (error instanceof ApiFailure && error.code === 'round-changed') {
        refs.forEach((ref) => this.asked.delete(ref));
        this.onStale();
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      refs.forEach((ref) => this.failed.set(ref, message));
    }
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** A listener that removes itself after its first call. */
function once(listeners: Set<() => void>, resolve: () => void): () => void {
  const listener = () => {
    listeners.delete(listener);
    resolve();
  };
  return listener;
}

const NO_ROUND = new Map<string, { at: number; chars: number }>();

export const DiffsContext = createContext<DiffStore | null>(null);

/** The store of a round's diffs, made again when the round's version changes. */
export function useDiffStore(api: Api, version: string, entries: readonly Entry[], onStale: () => void): DiffStore {
  const stale = useRef(onStale);
  stale.current = onStale;
  return useMemo(() => {
    const positions = version
      ? new Map(entries.map((entry, at) => [entry.ref, { at, chars: entry.chars ?? 0 }]))
      : NO_ROUND;
    return new DiffStore(api, version, positions, () => stale.current());
  }, [api, version, entries]);
}

/**
 * Asks for the diffs of a block of files coming near the screen, so they arrive in one
 * answer; once the browser is idle, so that the files on screen, which ask for their own
 * at once, are not kept waiting behind the block.
 */
export function useWantDiffs(refs: readonly string[], now: boolean): void {
  const store = useContext(DiffsContext);
  useEffect(() => {
    if (!now || !store) return;
    return whenIdle(() => store.want(refs), 500);
  }, [store, refs, now]);
}

/**
 * The file with its diff: at once for an entry that carries it (a commit's), else from the
 * round's store once fetched. While a new round's diff is on its way, the last one drawn
 * stays on screen, so a rewrite of material.json never flashes the page empty.
 */
export function useDiff(
  entry: Entry,
  /** Ask for the diff now (the file is near the screen); until then only a diff already at hand is given. */
  wanted = true,
): { entry: LoadedEntry | null; error: string | null; retry: () => void } {
  const store = useContext(DiffsContext);
  // A diff the index already tells: a binary's or withheld file's (null), an empty one ("").
  const known =
    entry.diff !== undefined ? entry.diff : entry.lines === null ? null : entry.chars === 0 ? '' : undefined;
  const carried = known !== undefined;
  const subscribe = store?.subscribe ?? noSubscribe;
  const diff = useSyncExternalStore(subscribe, () => (carried ? known : store?.get(entry.ref)));
  const error = useSyncExternalStore(subscribe, () => (carried ? undefined : store?.error(entry.ref)));
  // Asked in the layout phase: a jump's file asks in the jump's own task, not after its first frame.
  useLayoutEffect(() => {
    if (!carried && wanted) store?.want([entry.ref]);
  }, [store, entry.ref, carried, wanted]);
  const loaded = useMemo(
    () => (diff === undefined ? null : entry.diff !== undefined ? (entry as LoadedEntry) : { ...entry, diff }),
    [entry, diff],
  );
  const last = useRef<LoadedEntry | null>(null);
  if (loaded) last.current = loaded;
  const shown = loaded ?? (last.current?.ref === entry.ref ? last.current : null);
  return { entry: shown, error: error ?? null, retry: () => store?.retry(entry.ref) };
}

const noSubscribe = () => () => {};
