/**
 * The viewer bench's floor page, served by its bare server (after `npm run build`: it takes
 * the built viewer's stylesheet): a text file's diff arrives as diff2html's rows, escaped, with
 * the viewer's CSS beside it.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bareFolder, floorFiles, startBare } from './viewer-floor';
import type { Served } from './viewer-server';

const WEB = path.resolve(import.meta.dirname, '..', 'dist', 'web');
const folders: string[] = [];
const servers: Served[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

it('serves the first file as Raw draws it, with the viewer CSS, and answers 404 for anything else', async () => {
  const diff = '@@ -1,3 +1,3 @@\n keep\n-old <b>bold</b>\n+new & improved\n keep too\n';
  const folder = bareFolder(floorFiles({ ref: 'src/a.ts', diff, binary: false, status: 'modified' }, '/', WEB));
  folders.push(folder);
  const server = await startBare(folder, process.env);
  servers.push(server);

  const page = await fetch(server.url);
  const text = await page.text();
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(text).toContain('<section class="inv-file" data-ref="src/a.ts">');
  expect(text.match(/<tr>/g)?.length).toBeGreaterThanOrEqual(5);
  expect(text).toContain('&lt;b&gt;bold&lt;&#x2F;b&gt;');
  expect(text).not.toContain('<b>bold</b>');

  const css = await fetch(new URL('viewer.css', server.url));
  expect(css.status).toBe(200);
  expect(await css.text()).toContain('.d2h-diff-tbody');
  expect((await fetch(new URL('missing.css', server.url))).status).toBe(404);
});
