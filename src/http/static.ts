import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONSOLE_CSP, SECURITY_HEADERS } from './security.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

function fileIn(root: string, urlPath: string): string | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (rel.includes('\0')) return undefined;
  const abs = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  if (abs !== root && !abs.startsWith(`${root}${path.sep}`)) return undefined;
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (st?.isFile()) return abs;
  if (st?.isDirectory()) {
    const index = path.join(abs, 'index.html');
    if (fs.existsSync(index)) return index;
  }
  return undefined;
}

/**
 * The built web console (`out/renderer`) at `/`: files as they are, and index.html for any other path without
 * a file extension (client-side routes). Every response carries the CSP and the usual hardening headers.
 */
export function serveStatic(req: IncomingMessage, res: ServerResponse, root: string | undefined, pathname: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const dir = root ? path.resolve(root) : undefined;
  if (!dir || !fs.existsSync(path.join(dir, 'index.html'))) {
    if (pathname !== '/') return false;
    const body = 'ragdesk is running. The web console is not built (npm run build); MCP is at /mcp, the API at /api/:method.\n';
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONSOLE_CSP, ...SECURITY_HEADERS });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }
  let file = fileIn(dir, pathname);
  if (!file && path.posix.extname(pathname) === '') file = path.join(dir, 'index.html');
  if (!file) return false;
  const ext = path.extname(file).toLowerCase();
  const st = fs.statSync(file);
  const immutable = /[.-][A-Za-z0-9_-]{8,}\.(js|css|woff2?|png|svg|jpg|webp)$/.test(file) && file.includes(`${path.sep}assets${path.sep}`);
  res.writeHead(200, {
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    'Content-Length': st.size,
    'Cache-Control': ext === '.html' ? 'no-cache' : immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    'Content-Security-Policy': CONSOLE_CSP,
    ...SECURITY_HEADERS,
  });
  if (req.method === 'HEAD') res.end();
  else fs.createReadStream(file).pipe(res);
  return true;
}
