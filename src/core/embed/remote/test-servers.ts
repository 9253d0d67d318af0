import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Real HTTP servers on 127.0.0.1 for the remote-embedder tests: they speak Ollama's `/api/embed` and
 * `/api/embeddings` and OpenAI's `/v1/embeddings`, record every request, and let a test script failures.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  at: number;
}

/** Answer one request; return false to fall through to the server's normal behaviour. */
export type Script = (req: RecordedRequest, res: http.ServerResponse) => boolean | Promise<boolean>;

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  /** Scripts used once each, in order, before the normal behaviour. */
  queue: Script[];
  /** Used for every request while set (after the queue). */
  always?: Script;
  /** Vector size of the normal answers. */
  dim: number;
  close(): Promise<void>;
}

/** A deterministic bag-of-words vector, deliberately not unit length (the client normalises). */
export function fakeVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % dim]! += 3;
  }
  if (words.length === 0) v[0] = 1;
  return v;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

function normal(server: FakeServer, req: RecordedRequest, res: http.ServerResponse): void {
  const dim = server.dim;
  if (req.method === 'POST' && req.path === '/api/embed') {
    const input = req.body.input;
    const texts = Array.isArray(input) ? (input as string[]) : [String(input)];
    sendJson(res, 200, { model: req.body.model, embeddings: texts.map((t) => fakeVector(t, dim)) });
  } else if (req.method === 'POST' && req.path === '/api/embeddings') {
    sendJson(res, 200, { embedding: fakeVector(String(req.body.prompt), dim) });
  } else if (req.method === 'POST' && req.path.endsWith('/embeddings')) {
    const input = req.body.input;
    const texts = Array.isArray(input) ? (input as string[]) : [String(input)];
    const size = typeof req.body.dimensions === 'number' ? req.body.dimensions : dim;
    // Out of order on purpose: clients must sort by index.
    const data = texts.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t, size) })).reverse();
    sendJson(res, 200, { object: 'list', model: req.body.model, data, usage: { prompt_tokens: 1, total_tokens: 1 } });
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found');
  }
}

export async function startFakeServer(options: { dim?: number } = {}): Promise<FakeServer> {
  const server: FakeServer = { url: '', requests: [], queue: [], dim: options.dim ?? 16, close: async () => undefined };
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
        } catch {
          // left empty
        }
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0]!,
          headers: req.headers,
          body,
          at: Date.now(),
        };
        server.requests.push(recorded);
        const script = server.queue.shift() ?? server.always;
        if (script && (await script(recorded, res))) return;
        normal(server, recorded, res);
      })();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  server.close = () =>
    new Promise<void>((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    });
  return server;
}

/** A port that was free a moment ago and has nothing listening: connections are refused. */
export async function deadPort(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A fake server closed by the caller's cleanup list (see the remote tests' afterEach). */
export async function trackedServer(cleanup: Array<() => Promise<void>>, dim?: number): Promise<FakeServer> {
  const s = await startFakeServer(dim ? { dim } : {});
  cleanup.push(() => s.close());
  return s;
}
