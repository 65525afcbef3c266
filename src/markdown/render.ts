/**
 * The one module that imports markdown-it. It renders a Markdown file for reading only:
 * raw HTML is escaped as text (`html: false`), links markdown-it finds unsafe
 * (`javascript:`, `vbscript:`, `file:`, most `data:`) stay text, and an image is drawn
 * as its alt text, so a preview never loads anything from the network and runs nothing.
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false });

md.renderer.rules.image = (tokens, index) => {
  const token = tokens[index]!;
  const alt = md.utils.escapeHtml(token.content || 'image');
  const src = md.utils.escapeHtml(String(token.attrGet('src') ?? ''));
  return `<span class="inv-md-image" title="${src}">[image: ${alt}]</span>`;
};

// A link opens in a new tab, without telling the site where it came from.
const openLink =
  md.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]!.attrSet('target', '_blank');
  tokens[index]!.attrSet('rel', 'noopener noreferrer');
  return openLink(tokens, index, options, env, self);
};

/** The HTML of a Markdown text, safe to set as an element's content. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** A piece of inline Markdown, for drawing as React elements (never as HTML). */
export type InlineNode =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'break' }
  | { kind: 'strong' | 'em' | 's'; children: InlineNode[] }
  /** `href` is null when markdown-it finds the target unsafe, or it is not http(s) or mailto. */
  | { kind: 'link'; href: string | null; children: InlineNode[] };

const SAFE_HREF = /^(https?:|mailto:)/i;
const WRAPS = { strong_open: 'strong', em_open: 'em', s_open: 's', link_open: 'link' } as const;

/**
 * A one-paragraph text's inline Markdown (`code`, **strong**, *emphasis*, ~~struck~~, links)
 * as a tree; everything else stays text. Images are their alt text; raw HTML is text.
 */
export function inlineMarkdown(text: string): InlineNode[] {
  const root: InlineNode[] = [];
  const stack: InlineNode[][] = [root];
  const add = (node: InlineNode) => stack.at(-1)!.push(node);
  for (const token of md.parseInline(text, {})[0]?.children ?? []) {
    const kind = WRAPS[token.type as keyof typeof WRAPS];
    if (kind === 'link') {
      const href = String(token.attrGet('href') ?? '');
      const node: InlineNode = {
        kind,
        href: SAFE_HREF.test(href) && md.validateLink(href) ? href : null,
        children: [],
      };
      add(node);
      stack.push(node.children);
    } else if (kind) {
      const node: InlineNode = { kind, children: [] };
      add(node);
      stack.push(node.children);
    } else if (token.type.endsWith('_close')) {
      if (stack.length > 1) stack.pop();
    } else if (token.type === 'code_inline') add({ kind: 'code', text: token.content });
    else if (token.type === 'hardbreak') add({ kind: 'break' });
    else if (token.type === 'softbreak') add({ kind: 'text', text: '\n' });
    else add({ kind: 'text', text: token.content });
  }
  return root;
}
