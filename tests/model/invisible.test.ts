import { describe, expect, it } from 'vitest';
import { countInvisible, describe as describeChar, invisibleWarning, splitInvisible } from '../../src/model/invisible';

describe('direction-control and invisible characters', () => {
  it('cuts the Trojan Source line into text and the characters that reorder it', () => {
    const line = 'if (accessLevel != "user\u202E \u2066// Check if admin\u2069 \u2066") {';
    const pieces = splitInvisible(line);
    expect(pieces.filter((p) => typeof p !== 'string').map((p) => (p as { code: string }).code)).toEqual([
      'U+202E',
      'U+2066',
      'U+2069',
      'U+2066',
    ]);
    expect(pieces.map((p) => (typeof p === 'string' ? p : `⟨${p.code}⟩`)).join('')).toBe(
      'if (accessLevel != "user⟨U+202E⟩ ⟨U+2066⟩// Check if admin⟨U+2069⟩ ⟨U+2066⟩") {',
    );
    expect(countInvisible(line)).toEqual({ count: 4, bidi: true });
  });

  it.each([
    ['\u200B', 'ZERO WIDTH SPACE', false],
    ['\uFEFF', 'ZERO WIDTH NO-BREAK SPACE', false],
    ['\u061C', 'ARABIC LETTER MARK', true],
    ['\u200F', 'RIGHT-TO-LEFT MARK', true],
    ['\u{E0041}', 'TAG A', false],
  ])('names %j as %s', (char, name, bidi) => {
    expect(describeChar(char)).toMatchObject({ name, bidi });
    expect(splitInvisible(`a${char}b`)).toHaveLength(3);
  });

  it('leaves ordinary text, right-to-left scripts and emoji alone', () => {
    for (const text of ['plain text', 'שלום עולם', 'مرحبا', '👩\u200D💻 coder', '👍🏽\u200D👍'])
      expect(splitInvisible(text)).toEqual([text]);
    expect(countInvisible('a\u200Db').count).toBe(1);
    expect(invisibleWarning('plain', 'The diff')).toBeNull();
    expect(invisibleWarning('a\u202Eb', 'The diff')).toBe(
      'The diff holds 1 direction-control or invisible character, shown as ⟨U+…⟩ markers: the text may read otherwise than it runs.',
    );
  });
});
