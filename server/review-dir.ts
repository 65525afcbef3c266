import { constants, createWriteStream, type WriteStream } from 'node:fs';
import { access, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvolutError } from './errors';

/** The `.review/` folder of a repository and the files in it. */
export interface ReviewDir {
  dir: string;
  material: string;
  cards: string;
  notes: string;
  blobs: string;
  /** Emitter-owned: the base recorded by `involut rounds --begin`. */
  begin: string;
}

export function reviewDir(root: string): ReviewDir {
  const dir = path.join(root, '.review');
  return {
    dir,
    material: path.join(dir, 'material.json'),
    cards: path.join(dir, 'cards.json'),
    notes: path.join(dir, 'notes.json'),
    blobs: path.join(dir, 'blobs'),
    begin: path.join(dir, 'begin.json'),
  };
}

/** Fails, before anything is written, when `.review` cannot hold the round. */
export async function assertWritable(review: ReviewDir): Promise<void> {
  const info = await stat(review.dir).catch(() => null);
  if (info && !info.isDirectory()) {
    throw new InvolutError('review-not-folder', `${review.dir} exists but is not a folder; move it away so Involut can create .review/ there.`);
  }
  const target = info ? review.dir : path.dirname(review.dir);
  try {
    await access(target, constants.W_OK);
  } catch {
    throw new InvolutError('review-not-writable', `${target} is not writable; fix its permissions so Involut can write .review/.`);
  }
}

/** Writes a whole file through a temporary name and a rename, so no reader sees half of it. */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = temporaryName(file);
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** A file written piece by piece that appears, whole, only on `commit()`. */
export class AtomicWriter {
  private readonly temporary: string;
  private readonly out: WriteStream;

  private constructor(private readonly file: string) {
    this.temporary = temporaryName(file);
    this.out = createWriteStream(this.temporary);
  }

  static async open(file: string): Promise<AtomicWriter> {
    await mkdir(path.dirname(file), { recursive: true });
    return new AtomicWriter(file);
  }

  async write(text: string): Promise<void> {
    if (!this.out.write(text)) await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }

  async commit(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    await rename(this.temporary, this.file);
  }

  async abort(): Promise<void> {
    this.out.destroy();
    await rm(this.temporary, { force: true });
  }
}

/** Reads and parses a JSON file; `null` when it is missing or does not parse. */
export async function readJsonOrNull(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

function temporaryName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
}
