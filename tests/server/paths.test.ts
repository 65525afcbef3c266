import { describe, expect, it } from 'vitest';
import { checkRelativePath, decodeTail, insideFolder, PathRefused } from '../../server/serve/paths';

const refused = (fn: () => unknown) => expect(fn).toThrow(PathRefused);

describe('request paths', () => {
  it('decodes the tail of the raw URL exactly once', () => {
    expect(decodeTail('/api/blob/a%20b/c.png?x=1', '/api/blob/')).toBe('a b/c.png');
    expect(decodeTail('/api/blob/100%2525.png', '/api/blob/')).toBe('100%25.png');
    refused(() => decodeTail('/api/blob/%E0%A4%A', '/api/blob/'));
    refused(() => decodeTail('/api/%62lob/x', '/api/blob/'));
  });

  it.each([
    ['..', 'plain ..'],
    ['../etc/passwd', 'leading ..'],
    ['a/../../etc/passwd', 'inner ..'],
    ['a/..', 'trailing ..'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/win.ini', 'drive letter'],
    ['a\\..\\..\\secret', 'backslashes'],
    ['a/b\0.png', 'NUL'],
    ['a//b', 'empty segment'],
    ['./a', '. segment'],
    ['', 'empty'],
    ['%2e%2e/%2e%2e/etc/passwd', 'encoded once more (double-encoded on the wire)'],
    ['%252e%252e%252fetc', 'encoded twice more'],
    ['..%2fsecret', 'encoded slash'],
    ['%5c..%5csecret', 'encoded backslash'],
    ['%2Fetc%2Fpasswd', 'encoded absolute'],
    ['a%00.png', 'encoded NUL'],
  ])('refuses %j (%s)', (decoded) => {
    refused(() => checkRelativePath(decoded));
  });

  it('keeps ordinary names, a literal percent sign included', () => {
    for (const name of ['a.png', 'assets/hero.png', 'dir/100%.png', 'x%zz', 'ünïcode/ß.txt', '.hidden', 'a..b']) {
      expect(checkRelativePath(name)).toBe(name);
    }
  });

  it('keeps a joined path inside its folder', () => {
    expect(insideFolder('/r/.review/blobs', 'a/b.png')).toBe('/r/.review/blobs/a/b.png');
    refused(() => insideFolder('/r/.review/blobs', '../material.json'));
  });
});
