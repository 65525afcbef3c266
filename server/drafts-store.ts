import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DraftList, type Draft } from '../schemas/api';
import { writeFileAtomic } from './review-dir';
import { stateDir } from './running-servers';

/** A draft is a few sentences: more drafts than this for one repository are not drafts. */
const MAX_DRAFTS = 500;

/**
 * The reader's unsent note drafts, kept by the server per repository, outside it (in the
 * per-user state folder, mode 0700): the browser keeps drafts per origin, and a server
 * started again on another port is another origin, whose page could not see them. A draft
 * goes when its note is written. Never part of the contract: nothing but the viewer reads it.
 */
export class DraftsStore {
  private readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(root: string) {
    const id = createHash('sha256').update(root).digest('hex').slice(0, 32);
    this.file = path.join(stateDir(), 'drafts', `${id}.json`);
  }

  async list(): Promise<Draft[]> {
    try {
      const parsed = DraftList.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      return parsed.success ? parsed.data.drafts : [];
    } catch {
      return [];
    }
  }

  /** Keeps the draft of one note, or forgets it (`null`). */
  set(key: string, draft: Draft | null): Promise<void> {
    return this.change(key, () => draft);
  }

  /** Forgets the draft of a note just written, unless the reader typed on since (its text differs). */
  written(key: string, text: string): Promise<void> {
    return this.change(key, (old) => (old && old.body.text !== text ? old : null));
  }

  private change(key: string, next: (old: Draft | null) => Draft | null): Promise<void> {
    const run = this.queue.then(async () => {
      const all = await this.list();
      const old = all.find((d) => d.key === key) ?? null;
      const draft = next(old);
      if (draft === old) return;
      const drafts = all.filter((d) => d.key !== key);
      if (draft) drafts.push(draft);
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file, `${JSON.stringify({ drafts: drafts.slice(-MAX_DRAFTS) })}\n`);
    });
    this.queue = run.catch(() => {});
    return run;
  }
}
