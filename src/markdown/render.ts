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
