import type { Issue } from '../../schemas/api';

/**
 * Schema issues as plain sentences for `involut check`: zod's messages ("Invalid input:
 * expected array, received string") name types, not what the writer of the file should do.
 */

/** `marks[0].at` for the path ['marks', 0, 'at']; '' for the value itself. */
function fieldName(path: Array<string | number>): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

/**
 * Names the field and what is wrong with it, e.g. "`intent` is "feature", not one of …";
 * `whole` names the value itself when the issue's path is empty. `root` is the value the
 * path starts from, to quote what was found.
 */
export function describeIssue(issue: Issue, root: unknown, whole: string, prefix = ''): string {
  const field = fieldName(issue.path);
  const subject = field === '' ? whole : `\`${prefix}${field}\``;
  return `${subject} ${predicate(issue, valueAt(root, issue.path))}`;
}

function predicate(issue: Issue, value: unknown): string {
  const { code, message } = issue;
  if (code === 'invalid_type' && value === undefined) return 'is missing';
  const expected = /expected (\w+), received (\w+)/.exec(message);
  if (code === 'invalid_type' && expected) {
    if (expected[2] === 'undefined') return 'is missing';
    return `should be ${typeWord(expected[1]!)}, not ${typeWord(expected[2]!)}`;
  }
  const options = /expected one of (.+)$/.exec(message);
  if (code === 'invalid_value' && options) {
    const list = options[1]!
      .split('|')
      .map((o) => o.replace(/^"|"$/g, ''))
      .join(', ');
    return value === undefined ? `is missing (one of ${list})` : `is ${quote(value)}, not one of ${list}`;
  }
  const literal = /^Invalid input: expected (.+)$/.exec(message);
  if (code === 'invalid_value' && literal)
    return value === undefined ? `is missing (it must be ${literal[1]})` : `is ${quote(value)}, not ${literal[1]}`;
  const small = /expected (\w+) to (?:be|have) >=?(\d+)/.exec(message);
  if (code === 'too_small' && small) {
    if (small[1] === 'string' && small[2] === '1') return 'is empty';
    if (small[1] === 'number') return `is ${quote(value)}, below ${small[2]}`;
    return `is too short (at least ${small[2]})`;
  }
  if (code === 'invalid_union') return `has the wrong shape (${quote(value)})`;
  // The render schemas carry their own plain messages, such as "each entry needs a name, as text".
  return `is wrong (${message.replace(/\.$/, '')})`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  null: 'null',
  nan: 'not a number',
};

const typeWord = (type: string) => TYPE_WORDS[type] ?? type;

function valueAt(root: unknown, path: Array<string | number>): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

const CARD_FIXES: Record<string, string> = {
  id: 'Give the card a non-empty text `id` no other card uses, such as "c_4".',
  title: 'Give the card a `title` as text: the outcome, in plain words.',
  intent: 'Set `intent` to one of structure, behavior, cleanup, assets, risk.',
  minutes: 'Set `minutes` to the minutes a careful reader needs (a number, zero or more).',
  refs: 'Make `refs` a list of the changed files, each exactly as `ref` in material.json.',
  why: 'Make `why` a sentence of text, or null when you did not fill it in.',
  skipped: 'Make `skipped` text or a list of texts: "" or [] when nothing was skipped, null when you did not look.',
  unrequested:
    'Make `unrequested` text or a list of texts: "" or [] when nothing crept in, null when you did not look.',
  unsure: 'Make `unsure` an object { "about", "chose", "because", "alternative" }, or null.',
  might_break:
    'Make `might_break` a list of sentences: [] when you looked and found nothing, null when you did not look.',
  question: 'Make `question` an object { "when": "before" or "after", "text", "options", "answer" }, or null.',
  render: 'Set `render` to one of code, tree, graph, image, schema, table.',
  continues: 'Set `continues` to the id of the earlier card this one revises, or null.',
  marks:
    'Make each mark { "ref", "at", "text" }: one of the card\'s files, a piece of one line of its diff, and a sentence.',
  addresses: 'Make `addresses` a list of note keys, exactly as `involut notes` prints them.',
};

const FRAME_FIXES: Record<string, string> = {
  contract: 'Put "contract": 1 at the top of cards.json.',
  request: "Make `request` the human's request as text, or leave it out.",
  cards: 'Make `cards` a list of card objects.',
};

export function fixForCardField(key: string | number | undefined): string {
  return (
    (typeof key === 'string' && CARD_FIXES[key]) ||
    'Fix the card as the contract describes it (`involut skill` shows every field).'
  );
}

export function fixForFrameField(key: string | number | undefined): string {
  return (
    (typeof key === 'string' && FRAME_FIXES[key]) ||
    'Write cards.json as { "contract": 1, "request": "…", "cards": [ … ] }.'
  );
}
