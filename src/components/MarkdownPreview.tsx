import { useEffect, useState } from 'react';
import './reading.css';
import type { Entry } from '../model/entry';
import type { Api } from '../api/client';

type Side = 'before' | 'after';
type Shown =
  | { state: 'loading' }
  | { state: 'none'; why: string }
  | { state: 'failed'; why: string }
  | { state: 'ok'; html: string };

/** A Markdown file of the material: a file ending in .md or .markdown with text lines. */
export function isMarkdown(entry: Entry): boolean {
  return /\.(md|markdown)$/i.test(entry.ref) && !entry.binary && !entry.withheld && !entry.submodule;
}

/** A Markdown file rendered before and after, side by side, from the round's own git objects. */
export function MarkdownPreview({ entry, api }: { entry: Entry; api: Api }) {
  return (
    <div className="inv-md-preview" role="group" aria-label={`Preview of ${entry.ref}`}>
      <PreviewSide entry={entry} api={api} side="before" />
      <PreviewSide entry={entry} api={api} side="after" />
    </div>
  );
}

function PreviewSide({ entry, api, side }: { entry: Entry; api: Api; side: Side }) {
  const shown = useRendered(entry, api, side);
  return (
    <section className="inv-md-side" aria-label={`${side} (rendered)`}>
      <h3 className="inv-md-side-title">{side}</h3>
      {shown.state === 'ok' ? (
        // renderMarkdown escapes raw HTML and draws no images: this is text and links only.
        <div className="inv-md-body" dangerouslySetInnerHTML={{ __html: shown.html }} />
      ) : (
        <p className="inv-muted">{shown.state === 'loading' ? 'Rendering…' : shown.why}</p>
      )}
    </section>
  );
}

function useRendered(entry: Entry, api: Api, side: Side): Shown {
  const absent =
    side === 'before' && entry.status === 'added'
      ? 'Did not exist before this round.'
      : side === 'after' && entry.status === 'deleted'
        ? 'Deleted in this round.'
        : null;
  const [shown, setShown] = useState<Shown>({ state: 'loading' });
  useEffect(() => {
    if (absent) return;
    let live = true;
    setShown({ state: 'loading' });
    // markdown-it loads only when a preview is first opened.
    Promise.all([api.lines(entry.ref, side), import('../markdown/render')]).then(
      ([answer, { renderMarkdown }]) =>
        live && setShown({ state: 'ok', html: renderMarkdown(answer.lines.join('\n')) }),
      (error: Error) => live && setShown({ state: 'failed', why: error.message }),
    );
    return () => {
      live = false;
    };
  }, [api, entry.ref, entry.hash, side, absent]);
  return absent ? { state: 'none', why: absent } : shown;
}
