import type { HeldEntry } from '../../schemas/api';

/** A file as the viewer holds it (see HeldEntry): its diff at hand, or fetched when it is drawn. */
export type Entry = HeldEntry;

/** A file with its diff at hand, ready to draw. */
export type LoadedEntry = Entry & { diff: string | null };
