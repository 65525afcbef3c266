import { memo, useRef, type ReactNode } from 'react';
import { NEAR, useNearViewport } from '../diff/useNearViewport';
import { useWantDiffs } from '../state/diffs';

interface Props {
  /** About as tall as its files will be: the placeholder's height until they mount. */
  height: number;
  /** The files' refs, the first one first: a keyboard step onto the placeholder goes to that file. */
  refs: readonly string[];
  /** Mount the files whatever the viewport: the block holds the file being jumped to. */
  pinned: boolean;
  /** The files, made only when the block mounts them: a round of 10,000 files makes the few near the screen. */
  files: () => ReactNode;
}

/**
 * A block of Raw's files. Its files mount when it first comes near the viewport (or holds
 * the file jumped to) and then stay; until then it is one placeholder about as tall as
 * they will be. A round of 2,000 files first mounts the block or two in view, and a
 * change in one file lays out its block and the blocks, not 2,000 sections. Its files'
 * diffs are fetched together when it mounts.
 */
export const FileBlock = memo(function FileBlock({ height, refs, pinned, files }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const near = useNearViewport(host, NEAR, { sticky: true });
  // The block's diffs come in one answer, once the files on screen have asked for theirs.
  useWantDiffs(refs, near || pinned);
  if (near || pinned) {
    return (
      <div ref={host} className="inv-files">
        {files()}
      </div>
    );
  }
  return <div ref={host} className="inv-files inv-files-far" data-first-ref={refs[0]} style={{ height }} />;
});
