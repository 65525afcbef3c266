/**
 * The floor the viewer is measured against: one static page that holds only the first file of
 * Raw, drawn as Raw first draws it (a text diff as diff2html's HTML, with the viewer's built
 * CSS; an image as its before and after pictures; anything else as one line), served from a
 * temporary folder outside the repository by a bare `node:http` server. The same bare server,
 * answering `/` from a folder of its own, is what the viewer's server start-up is compared with.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { html, parse } from 'diff2html';
import { ColorSchemeType } from 'diff2html/lib-esm/types';
import { spawnServer, type Served } from './viewer-server';

/** A bare static server, CommonJS (its folder's package.json says so, whatever the folders above say). */
const BARE_JS = `const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.png': 'image/png' };
http
  .createServer((request, response) => {
    const name = new URL(request.url, 'http://localhost').pathname;
    const file = path.join(__dirname, name === '/' ? 'index.html' : path.normalize(name));
    fs.readFile(file, (error, body) => {
      if (error) return response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(body);
    });
  })
  .listen(0, '127.0.0.1', function () {
    console.log('http://127.0.0.1:' + this.address().port + '/');
  });
`;

/** A temporary folder holding `bare.js` and `files`; `node <folder>/bare.js` serves it. */
export function bareFolder(files: Record<string, string | Buffer>): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'involut-bench-static-'));
  writeFileSync(path.join(folder, 'bare.js'), BARE_JS);
  writeFileSync(path.join(folder, 'package.json'), '{ "type": "commonjs" }\n');
  for (const [name, data] of Object.entries(files)) writeFileSync(path.join(folder, name), data);
  return folder;
}

export const startBare = (folder: string, env: NodeJS.ProcessEnv): Promise<Served> =>
  spawnServer([path.join(folder, 'bare.js')], env);

export interface FloorEntry {
  ref: string;
  diff: string | null;
  binary: boolean;
  status: string;
  before?: string;
}

/** How the viewer draws a diff's rows (see src/diff/diff2html.ts), in one table. */
const DRAW = {
  drawFileList: false,
  outputFormat: 'line-by-line',
  matching: 'none',
  diffStyle: 'word',
  colorScheme: ColorSchemeType.LIGHT,
} as const;

/**
 * The floor page's files for `entry` (the first file of Raw) of the round in `repoDir`, with the
 * built viewer's stylesheet (`webRoot`: dist/web). The file sits in `main section.inv-file`, so
 * the viewer's own test of "first file readable" applies to it unchanged.
 */
export function floorFiles(entry: FloorEntry, repoDir: string, webRoot: string): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {};
  const css = /href="\/(assets\/[^"]+\.css)"/.exec(readFileSync(path.join(webRoot, 'index.html'), 'utf8'))?.[1];
  if (css) files['viewer.css'] = readFileSync(path.join(webRoot, css));
  let body: string;
  if (entry.diff !== null && !entry.binary) {
    body = html(parse(`--- a/${entry.ref}\n+++ b/${entry.ref}\n${entry.diff}`), DRAW);
  } else if (entry.binary && /\.(png)$/i.test(entry.ref)) {
    const sides: string[] = [];
    if (entry.before && existsSync(path.join(repoDir, '.review', entry.before))) {
      files['before.png'] = readFileSync(path.join(repoDir, '.review', entry.before));
      sides.push('<img src="before.png" alt="before">');
    }
    if (entry.status !== 'deleted' && existsSync(path.join(repoDir, entry.ref))) {
      files['after.png'] = readFileSync(path.join(repoDir, entry.ref));
      sides.push('<img src="after.png" alt="after">');
    }
    body = `<div style="display:flex;gap:16px">${sides.join('')}</div>`;
  } else {
    body = `<p class="inv-file-message">No diff to show for ${escape(entry.ref)}.</p>`;
  }
  files['index.html'] = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(entry.ref)}</title>
${css ? '<link rel="stylesheet" href="viewer.css">' : ''}</head>
<body><main><section class="inv-file" data-ref="${escape(entry.ref)}"><h2>${escape(entry.ref)}</h2>
${body}
</section></main></body></html>
`;
  return files;
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
