import { describe, expect, it } from 'vitest';
import { SectionSplitter } from '../../server/git/diff';

/** A patch stream of `n` files, some long enough to span many chunks. */
function patchStream(n: number): { stream: Buffer; sections: string[] } {
  const sections: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = `@@ -1 +1 @@\n${`-old line ${i}\n+new line ${i} diff --git inside a line\n`.repeat(i % 7 === 0 ? 400 : 1 + (i % 3))}`;
    sections.push(`diff --git a/f${i} b/f${i}\nindex 1..2 100644\n--- a/f${i}\n+++ b/f${i}\n${body}`);
  }
  return { stream: Buffer.from(sections.join('')), sections };
}

describe('SectionSplitter', () => {
  it('cuts at every `diff --git` line, whatever the chunk sizes, markers straddling chunks included', () => {
    const { stream, sections } = patchStream(60);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) % 1000) / 1000;
    for (const largest of [1, 2, 5, 11, 12, 13, 64, 4096, 65536]) {
      const splitter = new SectionSplitter();
      const out: string[] = [];
      for (let at = 0; at < stream.length;) {
        const size = 1 + Math.floor(random() * largest);
        out.push(...splitter.push(stream.subarray(at, at + size)).map((section) => section.toString()));
        at += size;
      }
      out.push(...splitter.end().map((section) => section.toString()));
      expect(out, `chunks of up to ${largest} bytes`).toEqual(sections);
    }
  });
});
