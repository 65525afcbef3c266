import { memo, useRef, type ReactNode } from 'react';
import { NEAR, useNearViewport } from '../diff/useNearViewport';

interface Props {
  /** About as tall as its files will be: the placeholder's height until they mount. */
  height: number;
  /** The first file's ref: a keyboard step onto the placeholder goes to that file. */
  first: string;
  /** Mount the files whatever the viewport: the block holds the file being jumped to. */
  pinned: boolean;
  children: ReactNode;
}

/**
 * A block of Raw's files. Its files mount when it first comes near the viewport (or holds
 * the file jumped to) and then stay; until then it is one placeholder about as tall as
 * they will be. A round of 2,000 files first mounts the block or two in view, and a
 * change in one file lays out its block and the blocks, not 2,000 sections.
 */
export const FileBlock = memo(function FileBlock({ height, first, pinned, children }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const near = useNearViewport(host, NEAR, { sticky: true });
  if (near || pinned) {
    return (
      <div ref={host} className="inv-files">
        {children}
      </div>
    );
  }
  return <div ref={host} className="inv-files inv-files-far" data-first-ref={first} style={{ height }} />;
});
