import { useEffect, useState } from 'react';
import './reading.css';

/** How long the button says "copied". */
const COPIED_MS = 2000;

/** A file header's button that puts the file's path on the clipboard, as the repository names it. */
export function CopyPath({ path }: { path: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () =>
    navigator.clipboard.writeText(path).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <button
      type="button"
      className="inv-file-action"
      aria-label={`Copy path: ${path}`}
      title="Copy this file's path"
      onClick={() => void copy()}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Not copied' : 'Copy path'}
      <span className="inv-visually-hidden" role="status">
        {state === 'copied' ? `Copied ${path}` : state === 'failed' ? 'The browser refused the clipboard' : ''}
      </span>
    </button>
  );
}
