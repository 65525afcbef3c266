/**
 * Where a JSON text first goes wrong, as an offset into it, or `null` when it is valid
 * or too deeply nested to scan. V8's JSON.parse names the position for some errors
 * ("Expected ',' … at position 42") but not for an unexpected token, so the line and
 * column an agent needs to fix its file come from this small scanner of the JSON grammar.
 */
export function jsonErrorOffset(text: string): number | null {
  const scanner = new Scanner(text);
  try {
    scanner.document();
    return null;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    if (error instanceof RangeError) return null; // nesting deeper than the stack
    throw error;
  }
}

class SyntaxAt extends Error {
  constructor(readonly offset: number) {
    super(`JSON syntax error at ${offset}`);
  }
}

class Scanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.space();
    if (this.i < this.text.length) this.fail();
  }

  private value(): void {
    this.space();
    const char = this.text[this.i];
    if (char === '{') return this.list('}', () => this.member());
    if (char === '[') return this.list(']', () => this.value());
    if (char === '"') return this.string();
    if (char === '-' || isDigit(char)) return this.number();
    const word = ['true', 'false', 'null'].find((w) => this.text.startsWith(w, this.i));
    if (!word) this.fail();
    this.i += word!.length;
  }

  private list(close: string, item: () => void): void {
    this.i += 1;
    this.space();
    if (this.text[this.i] === close) return void (this.i += 1);
    for (;;) {
      item();
      this.space();
      if (this.text[this.i] === close) return void (this.i += 1);
      this.expect(',');
    }
  }

  private member(): void {
    this.space();
    this.string();
    this.space();
    this.expect(':');
    this.value();
  }

  private string(): void {
    this.expect('"');
    const text = this.text;
    while (this.i < text.length) {
      const char = text[this.i]!;
      if (char === '"') return void (this.i += 1);
      if (char < ' ') this.fail();
      if (char !== '\\') this.i += 1;
      else if ('"\\/bfnrt'.includes(text[this.i + 1] ?? 'x')) this.i += 2;
      else if (text[this.i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) this.i += 6;
      else this.fail();
    }
    this.fail();
  }

  private number(): void {
    if (this.text[this.i] === '-') this.i += 1;
    if (this.text[this.i] === '0') this.i += 1;
    else this.digits();
    if (this.text[this.i] === '.') {
      this.i += 1;
      this.digits();
    }
    if (this.text[this.i] === 'e' || this.text[this.i] === 'E') {
      this.i += 1;
      if (this.text[this.i] === '+' || this.text[this.i] === '-') this.i += 1;
      this.digits();
    }
  }

  private digits(): void {
    if (!isDigit(this.text[this.i])) this.fail();
    while (isDigit(this.text[this.i])) this.i += 1;
  }

  private space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i += 1;
  }

  private expect(char: string): void {
    if (this.text[this.i] !== char) this.fail();
    this.i += 1;
  }

  private fail(): never {
    throw new SyntaxAt(this.i);
  }
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}
