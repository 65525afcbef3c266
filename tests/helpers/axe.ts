/**
 * axe-core in the real page: its source is evaluated through the browser's debugging
 * protocol (the viewer's CSP refuses inline scripts, and rightly), then `axe.run` checks
 * the document as the reader has it at that moment.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

/** The serious and critical violations axe finds in the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (
          context: Document,
          options: object,
        ) => Promise<{
          violations: Array<{
            id: string;
            impact: string | null;
            help: string;
            nodes: Array<{ target: unknown[]; failureSummary?: string }>;
          }>;
        }>;
      };
    };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact!,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
      }));
  });
}

/** The violations as a reader fixing them wants them: rule, impact, and the first few elements with axe's reason. */
export function describeViolations(where: string, violations: Violation[]): string {
  const lines = [`${where}: ${violations.length} serious or critical axe violation(s)`];
  for (const v of violations) {
    lines.push(`- ${v.id} (${v.impact}, ${v.nodes.length} element(s)): ${v.help}`);
    for (const node of v.nodes.slice(0, 5))
      lines.push(`    ${node.target}\n      ${node.summary.replace(/\n\s*/g, '\n      ')}`);
    if (v.nodes.length > 5) lines.push(`    … and ${v.nodes.length - 5} more`);
  }
  return lines.join('\n');
}
