import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { ReviewFile } from '../../schemas/api';
import type { NotesStore } from '../review/notes-store';
import { WAITING_FILE } from '../review/waiting';
import { signature, type ReviewFiles } from '../review/review-files';

const FILES: ReviewFile[] = ['material', 'cards', 'notes'];
const isWaiting = (p: string) => path.basename(p) === WAITING_FILE;
const BY_NAME = new Map<string, ReviewFile>(FILES.map((file) => [`${file}.json`, file]));

export interface WatchOptions {
  /** Quiet time after the last file event before the file is read. Default 30 ms. */
  debounceMs?: number;
  /** Called when `.review/waiting.json` (the presence of `involut notes --wait`) appears, changes or goes. */
  onWaiting?: () => void;
  /** Called when a changed file cannot be read (permissions, I/O); the watch goes on. */
  onError?: (error: unknown) => void;
}

/**
 * Watches `.review/` and nothing else, so its cost never depends on the repository's
 * size: the folder itself (depth 0) and only the three review files in it; blobs/ and
 * temporary files are ignored. Before `.review/` exists (and after it is removed), it
 * watches the repository's top folder alone, non-recursively, for `.review` to appear.
 * A change is reported once its bytes have settled (see `readSettled`) and differ from
 * the last ones reported. The server's own note writes are not reported, but count as
 * the last bytes seen from the moment of their rename, so an older copy put back right
 * after one is reported even when the watcher never read the write itself.
 */
export class ReviewWatcher {
  private watcher: FSWatcher | null = null;
  /** The inode of the `.review` folder being watched, if it is. */
  private watchedIno: number | undefined;
  private arming: Promise<void> = Promise.resolve();
  private rearmQueued = false;
  private closed = false;
  private readonly dir: string;
  private readonly root: string;
  private readonly last = new Map<ReviewFile, string | null>();
  /** Each file's signature when the watch was armed, until its first check. */
  private readonly armedAt = new Map<ReviewFile, string | null>();
  private readonly timers = new Map<ReviewFile, NodeJS.Timeout>();
  private readonly busy = new Set<ReviewFile>();
  private readonly again = new Set<ReviewFile>();
  /** How many note writes the server has made, to tell a read that raced one. */
  private noteWrites = 0;
  private readonly unlisten: () => void;

  constructor(
    private readonly files: ReviewFiles,
    notes: NotesStore,
    private readonly onChange: (file: ReviewFile) => void,
    private readonly options: WatchOptions = {},
  ) {
    this.dir = files.review.dir;
    this.root = path.dirname(this.dir);
    this.unlisten = notes.onWrite((hash) => {
      this.last.set('notes', hash);
      this.noteWrites += 1;
    });
  }

  /**
   * Arms the watch, noting each file's signature (a stat, not its bytes: hashing a large
   * material would hold up the server's start). The first check of a file that kept that
   * signature learns what it holds without reporting it; any other change is reported.
   */
  async start(): Promise<void> {
    for (const file of FILES) this.armedAt.set(file, await signature(this.files.review[file]));
    await this.rearm();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unlisten();
    for (const timer of this.timers.values()) clearTimeout(timer);
    clearTimeout(this.waitingTimer);
    await this.arming;
    await this.watcher?.close();
    this.watcher = null;
  }

  /** How many paths chokidar watches (folders and files), for tests and diagnostics. */
  watchedCount(): number {
    const watched = this.watcher?.getWatched() ?? {};
    return Object.keys(watched).length + Object.values(watched).reduce((sum, names) => sum + names.length, 0);
  }

  /** What is being watched now: the `.review` folder, or the top folder waiting for it. */
  get target(): 'review' | 'root' | 'none' {
    const watched = this.watcher?.getWatched() ?? {};
    return this.dir in watched ? 'review' : this.root in watched ? 'root' : 'none';
  }

  private rearm(): Promise<void> {
    if (this.rearmQueued) return this.arming;
    this.rearmQueued = true;
    this.arming = this.arming.then(async () => {
      this.rearmQueued = false;
      await this.watcher?.close();
      this.watcher = null;
      if (this.closed) return;
      this.watchedIno = statSync(this.dir, { throwIfNoEntry: false })?.ino;
      const review = this.watchedIno !== undefined;
      this.watcher = review ? this.watchReview() : this.watchRoot();
      await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
      // Anything may have changed while no watcher was armed; unchanged files are not reported.
      for (const file of FILES) this.schedule(file);
      if (!review && existsSync(this.dir)) void this.rearm();
    });
    return this.arming;
  }

  private watchReview(): FSWatcher {
    const keep = (p: string) =>
      p === this.dir || (path.dirname(p) === this.dir && (BY_NAME.has(path.basename(p)) || isWaiting(p)));
    const watcher = watch(this.dir, { ignoreInitial: true, depth: 0, followSymlinks: false, ignored: (p) => !keep(p) });
    watcher.on('all', (event, p) => {
      if (event === 'unlinkDir' && p === this.dir) this.rearmIfMoved();
      const file = path.dirname(p) === this.dir ? BY_NAME.get(path.basename(p)) : undefined;
      if (file) this.schedule(file);
      if (path.dirname(p) === this.dir && isWaiting(p)) this.waitingChanged();
    });
    // chokidar drops some of a quick series of atomic rewrites (renames ~40 ms apart give
    // no event for every other one); the raw inotify events still name the file, and a
    // needless check costs one stat, since unchanged bytes are never reported.
    watcher.on('raw', (_event, name, details) => {
      const where = (details as { watchedPath?: string } | undefined)?.watchedPath ?? '';
      // Under load chokidar may never report `.review/` itself removed; inotify still does.
      if (where === this.dir && name === path.basename(this.dir)) this.rearmIfMoved();
      const file = BY_NAME.get(path.basename(name));
      if (file && (where === this.dir || path.dirname(where) === this.dir)) this.schedule(file);
      if (where === this.dir && isWaiting(name)) this.waitingChanged();
    });
    watcher.on('error', (error) => this.options.onError?.(error));
    return watcher;
  }

  /** Tells of a change of the presence record once it settles (a write is often two events). */
  private waitingChanged(): void {
    if (this.closed || !this.options.onWaiting) return;
    clearTimeout(this.waitingTimer);
    this.waitingTimer = setTimeout(() => this.options.onWaiting?.(), this.options.debounceMs ?? 30);
  }

  private waitingTimer: NodeJS.Timeout | undefined;

  /** Watches anew when `.review/` is gone or is another folder than the one watched. */
  private rearmIfMoved(): void {
    const now = statSync(this.dir, { throwIfNoEntry: false });
    if (now?.ino !== this.watchedIno) void this.rearm();
  }

  private watchRoot(): FSWatcher {
    const watcher = watch(this.root, {
      ignoreInitial: true,
      depth: 0,
      ignored: (p) => p !== this.root && p !== this.dir,
    });
    const appeared = () => {
      if (this.target === 'root' && existsSync(this.dir)) void this.rearm();
    };
    watcher.on('addDir', appeared);
    watcher.on('raw', (_event, name) => {
      if (path.basename(name) === '.review') appeared();
    });
    watcher.on('error', (error) => this.options.onError?.(error));
    return watcher;
  }

  private schedule(file: ReviewFile): void {
    if (this.closed) return;
    clearTimeout(this.timers.get(file));
    this.timers.set(
      file,
      setTimeout(() => void this.check(file), this.options.debounceMs ?? 30),
    );
  }

  private async check(file: ReviewFile): Promise<void> {
    if (this.busy.has(file)) {
      this.again.add(file);
      return;
    }
    this.busy.add(file);
    try {
      do {
        this.again.delete(file);
        const writes = this.noteWrites;
        const armed = this.armedAt.get(file);
        this.armedAt.delete(file);
        const path = this.files.review[file];
        const before = armed === undefined ? undefined : await signature(path);
        const { hash } = await this.files.read(file);
        // Read whole while it kept the signature it had when the watch was armed: what it held then.
        const unmoved = armed !== undefined && before === armed && (await signature(path)) === armed;
        // The server wrote notes.json while this read was under way: the bytes may predate it.
        if (file === 'notes' && writes !== this.noteWrites) this.again.add(file);
        else if (unmoved && !this.last.has(file)) this.last.set(file, hash);
        else if (!this.closed && hash !== this.last.get(file)) {
          this.last.set(file, hash);
          this.onChange(file);
        }
      } while (this.again.has(file));
    } catch (error) {
      this.options.onError?.(error);
    } finally {
      this.busy.delete(file);
    }
  }
}
