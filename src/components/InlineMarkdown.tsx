import { useMemo, type ReactNode } from 'react';
import { inlineMarkdown, type InlineNode } from '../markdown/render';
import { Visible } from './Visible';
import './InlineMarkdown.css';

/**
 * Agent-written text with its inline Markdown drawn (`code`, **bold**, *emphasis*, links) as
 * elements, never as HTML: a link opens only an http(s) or mailto target, in a new tab, and
 * shows where it goes; any other stays text. `links={false}` draws links as their text (inside
 * a button). Invisible characters are marked, as everywhere.
 */
export function InlineMarkdown({ text, links = true }: { text: string; links?: boolean }) {
  const nodes = useMemo(() => (/[`*_~[\\<&]/.test(text) ? inlineMarkdown(text) : null), [text]);
  if (nodes === null) return <Visible text={text} />;
  return <>{draw(nodes, links)}</>;
}

function draw(nodes: InlineNode[], links: boolean): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.kind) {
      case 'text':
        return <Visible key={i} text={node.text} />;
      case 'code':
        return (
          <code key={i} className="inv-inline-code">
            <Visible text={node.text} />
          </code>
        );
      case 'break':
        return <br key={i} />;
      case 'strong':
        return <strong key={i}>{draw(node.children, links)}</strong>;
      case 'em':
        return <em key={i}>{draw(node.children, links)}</em>;
      case 's':
        return <s key={i}>{draw(node.children, links)}</s>;
      case 'link':
        return links && node.href !== null ? (
          <a key={i} href={node.href} target="_blank" rel="noopener noreferrer" title={node.href}>
            {draw(node.children, links)}
          </a>
        ) : (
          <span key={i} className="inv-inline-link" title={node.href ?? undefined}>
            {draw(node.children, links)}
          </span>
        );
    }
  });
}
