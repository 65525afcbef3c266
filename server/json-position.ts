/**
 * Where a JSON text first goes wrong, as an offset into it, or `null` when it is valid
 * or too deeply nested to scan. V8's JSON.parse names the position for some errors
 * ("Expected ',' … at position 42") but not for an unexpected token, so the line and
 * column an agent needs to fix its file come from this small scanner of the JSON grammar.
 */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i += 1;
  };
  const expect = (char: string) => (text[i] === char ? (i += 1) : fail());
  const string = () => {
    expect('"');
    while (i < text.length) {
      const char = text[i]!;
      if (char === '"') return void (i += 1);
      if (char < ' ') fail();
      if (char !== '\\') i += 1;
      else if ('"\\/bfnrt'.includes(text[i + 1] ?? 'x')) i += 2;
      else if (text[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
      else fail();
    }
    fail();
  };
  const digits = () => {
    if (!isDigit(text[i])) fail();
    while (isDigit(text[i])) i += 1;
  };
  const number = () => {
    if (text[i] === '-') i += 1;
    if (text[i] === '0') i += 1;
    else digits();
    if (text[i] === '.') {
      i += 1;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i += 1;
      if (text[i] === '+' || text[i] === '-') i += 1;
      digits();
    }
  };
  const list = (close: string, item: () => void) => {
    i += 1;
    space();
    if (text[i] === close) return void (i += 1);
    for (;;) {
      item();
      space();
      if (text[i] === close) return void (i += 1);
      expect(',');
    }
  };
  const member = () => {
    space();
    string();
    space();
    expect(':');
    value();
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') return list('}', member);
    if (char === '[') return list(']', value);
    if (char === '"') return string();
    if (char === '-' || isDigit(char)) return number();
    const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
    if (!word) fail();
    i += word!.length;
  };
  try {
    value();
    space();
    if (i < text.length) fail();
    return null;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    if (error instanceof RangeError) return null; // nesting deeper than the stack
    throw error;
  }
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}
