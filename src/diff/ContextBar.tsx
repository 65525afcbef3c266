import { CONTEXT_STEP, type ExpandedContext } from './useExpandedContext';

/** Under a file's diff: more lines below its last hunk, or the whole file (a click on a hunk header shows lines above it). */
export function ContextBar({ context, refName }: { context: ExpandedContext; refName: string }) {
  if (!context.expandable || context.whole) return null;
  return (
    <div className="inv-context-bar" role="group" aria-label={`Context of ${refName}`}>
      {context.moreBelow && (
        <button type="button" onClick={() => void context.below()}>
          ↓ Show {CONTEXT_STEP} more lines below<span className="inv-visually-hidden"> in {refName}</span>
        </button>
      )}
      <button type="button" onClick={() => void context.wholeFile()}>
        ↕ Show the whole file<span className="inv-visually-hidden"> {refName}</span>
      </button>
      <span className="inv-muted">Click a hunk header to show {CONTEXT_STEP} lines above it.</span>
      {context.error && (
        <span className="inv-context-error" role="alert">
          {context.error}
        </span>
      )}
    </div>
  );
}
