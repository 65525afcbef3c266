import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Draft, DraftList } from '../../schemas/api';
import { writeFileAtomic } from './review-dir';
import { stateDir } from './state-dir';

/** A draft is a few sentences: more drafts than this for one repository are not drafts. */
const MAX_DRAFTS = 500;

/** A drafts file that cannot be read or is not a draft: said, never taken for "no drafts". */
export class DraftsUnreadable extends Error {
  constructor(file: string, cause: string) {
    super(`The viewer's draft file ${file} cannot be read (${cause}); move it away to start its drafts over.`);
    this.name = 'DraftsUnreadable';
  }
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * The reader's unsent note drafts, kept by the server per repository, outside it (in the
 * per-user state folder, mode 0700): the browser keeps drafts per origin, and a server
 * started again on another port is another origin, whose page could not see them. A draft
 * goes when its note is written. Never part of the contract: nothing but the viewer reads it.
 * One file per draft (`drafts/<repository>/<key>.json`), each written whole through a rename:
 * two servers on one repository each write only the drafts they are told of, so neither
 * overwrites the other's, and no write reads the others first.
 */
export class DraftsStore {
  private readonly dir: string;
  /** Where drafts were kept before: one file for the repository, read once and split. */
  private readonly legacy: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string) {
    const id = sha(root);
    this.dir = path.join(stateDir(), 'drafts', id);
    this.legacy = path.join(stateDir(), 'drafts', `${id}.json`);
  }

  async list(): Promise<Draft[]> {
    await this.splitLegacy();
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? [] : Promise.reject(new DraftsUnreadable(this.dir, error.message)),
    );
    const drafts: Draft[] = [];
    for (const name of names.filter((n) => /^[0-9a-f]{32}\.json$/.test(n))) {
      const draft = await this.readDraft(path.join(this.dir, name));
      if (draft) drafts.push(draft);
    }
    return drafts.slice(-MAX_DRAFTS);
  }

  /** Keeps the draft of one note, or forgets it (`null`). */
  set(key: string, draft: Draft | null): Promise<void> {
    return this.change(key, () => draft);
  }

  /** Forgets the draft of a note just written, unless the reader typed on since (its text differs). */
  written(key: string, text: string): Promise<void> {
    return this.change(key, (old) => (old && old.body.text !== text ? old : null));
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${sha(key)}.json`);
  }

  /** One draft file; null when it is gone (removed meanwhile). */
  private async readDraft(file: string): Promise<Draft | null> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new DraftsUnreadable(file, (error as Error).message);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new DraftsUnreadable(file, `not JSON: ${(error as Error).message}`);
    }
    const parsed = Draft.safeParse(data);
    if (!parsed.success) throw new DraftsUnreadable(file, 'not a draft');
    return parsed.data;
  }

  private change(key: string, next: (old: Draft | null) => Draft | null): Promise<void> {
    const run = this.queue.then(async () => {
      await this.splitLegacy();
      const file = this.fileOf(key);
      const old = await this.readDraft(file);
      const draft = next(old);
      if (draft === old) return;
      if (draft === null) return void (await rm(file, { force: true }));
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, `${JSON.stringify(draft)}\n`);
    });
    // The next change waits for this one, whatever its outcome: its caller hears of a failure.
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Splits the one-file drafts of an earlier Involut into one file per draft, then removes
   * it. A draft already in its own file is newer and stays; an unreadable old file is said,
   * and left in place.
   */
  private async splitLegacy(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.legacy, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new DraftsUnreadable(this.legacy, (error as Error).message);
    }
    let parsed: ReturnType<typeof DraftList.safeParse>;
    try {
      parsed = DraftList.safeParse(JSON.parse(text));
    } catch (error) {
      throw new DraftsUnreadable(this.legacy, `not JSON: ${(error as Error).message}`);
    }
    if (!parsed.success) throw new DraftsUnreadable(this.legacy, 'not a list of drafts');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const draft of parsed.data.drafts) {
      const file = this.fileOf(draft.key);
      if ((await this.readDraft(file)) === null) await writeFileAtomic(file, `${JSON.stringify(draft)}\n`);
    }
    await rm(this.legacy, { force: true });
  }
}
