import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixture, openTestCore, payload, type Fixture } from '../src/mcp/test-support.js';
import { prng } from '../src/core/util/prng.js';
import { startServe, stdioClient, type Connected, type Served } from './mcp-helpers.js';

/**
 * The load test on loopback: 32 clients at once for a fixed time, mixing search, add and delete. 24 call `/api`
 * over HTTP with API keys (six per key, so keys meet their rate limit), 8 are MCP clients through stdio bridges
 * (`ragdesk mcp` finding the live `ragdesk serve` and forwarding to its /mcp), half with keys, half as the owner.
 * Pass: no error but rate limiting (429 / busy), every acknowledged add is there and found by search, every
 * acknowledged delete is gone, nothing unacknowledged appeared, and the server's RSS stays level.
 *
 * 20 s here (npm test, two cores); RAGDESK_LOAD_SECONDS=60 runs the full minute (docs/benchmarks.md has its numbers).
 */
const SECONDS = Number(process.env.RAGDESK_LOAD_SECONDS ?? 20);
const HTTP_CLIENTS = 24;
const MCP_CLIENTS = 8;
const KB = 'load';

let fx: Fixture;
let served: Served;
const keys: string[] = [];
let bridges: Connected[] = [];

beforeAll(async () => {
  fx = await makeFixture('ragdesk-load-');
  const core = await openTestCore(fx.dataDir);
  await core.client.createKb({ kb_id: KB, embedding_model: fx.modelDir });
  for (let i = 0; i < 6; i++) keys.push((await core.client.createKey({ name: `load-${i}`, read: [KB], write: [KB] })).key);
  await core.close();
  served = await startServe(fx.dataDir);
  bridges = await Promise.all(
    Array.from({ length: MCP_CLIENTS }, (_, i) =>
      stdioClient(fx.dataDir, { name: `load-mcp-${i}`, env: i % 2 ? { RAGDESK_API_KEY: keys[4 + ((i >> 1) % 2)]! } : {} }),
    ),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(bridges.map((b) => b.close().catch(() => undefined)));
  await served?.stop();
  fx?.cleanup();
});

interface Tally {
  ops: Record<'search' | 'add' | 'delete', number>;
  /** Milliseconds of each answered call, by operation. */
  ms: Record<'search' | 'add' | 'delete', number[]>;
  limited: number;
  errors: string[];
  added: Set<string>;
  deleted: Set<string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A word no other document has, so a search for it must find exactly this document. */
const tokenOf = (docId: string) => `zq${docId.replace(/[^a-z0-9]/g, '')}`;
const WORDS = ['harbour', 'crane', 'container', 'ledger', 'invoice', 'policy', 'quay', 'manifest', 'customs', 'tariff'];

type Outcome = { ok: true } | { limited: true } | { error: string };

async function api(token: string, method: string, body: unknown): Promise<Outcome> {
  const res = await fetch(`${served.url}/api/${method}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status === 200) return { ok: true };
  if (res.status === 429) {
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    return { limited: true };
  }
  return { error: `${method} ${res.status} ${text.slice(0, 200)}` };
}

async function tool(client: Connected, name: string, args: Record<string, unknown>): Promise<Outcome> {
  const res = await client.client.callTool({ name, arguments: args });
  if (!res.isError) return { ok: true };
  const err = payload<{ code?: string; message?: string }>(res);
  if (err.code === 'busy' && /rate limit|in progress/.test(err.message ?? '')) {
    await sleep(1000);
    return { limited: true };
  }
  return { error: `${name} ${JSON.stringify(err).slice(0, 200)}` };
}

/** One client: until `end`, a random mix of searches (50%), adds (35%) and deletes of its own documents (15%). */
async function runClient(
  id: string,
  call: (op: 'search' | 'add' | 'delete', docId: string, text: string) => Promise<Outcome>,
  end: number,
  t: Tally,
) {
  const rnd = prng([...id].reduce((h, c) => h * 31 + c.charCodeAt(0), 7) >>> 0);
  const mine: string[] = [];
  let n = 0;
  while (Date.now() < end) {
    const r = rnd();
    const op = r < 0.5 || (r >= 0.85 && mine.length === 0) ? 'search' : r < 0.85 ? 'add' : 'delete';
    const docId = op === 'add' ? `${id}-${n++}` : op === 'delete' ? mine[Math.floor(rnd() * mine.length)]! : '';
    const text =
      op === 'add'
        ? `${WORDS[n % WORDS.length]} ${WORDS[(n * 7) % WORDS.length]} report ${tokenOf(docId)} from client ${id}.`
        : WORDS[Math.floor(rnd() * WORDS.length)]!;
    let outcome: Outcome;
    const started = performance.now();
    try {
      outcome = await call(op, docId, text);
    } catch (err) {
      outcome = { error: `${op} threw ${String(err).slice(0, 200)}` };
    }
    if ('limited' in outcome) {
      t.limited++;
      continue;
    }
    if ('error' in outcome) {
      t.errors.push(`${id}: ${outcome.error}`);
      continue;
    }
    t.ops[op]++;
    t.ms[op].push(performance.now() - started);
    if (op === 'add') {
      mine.push(docId);
      t.added.add(docId);
    } else if (op === 'delete') {
      mine.splice(mine.indexOf(docId), 1);
      t.deleted.add(docId);
    }
  }
}

function rssKb(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}

describe(`loopback load: ${HTTP_CLIENTS + MCP_CLIENTS} clients for ${SECONDS} s`, () => {
  it(
    'answers everything (or rate-limits it), loses nothing, and keeps its memory level',
    async () => {
      const t: Tally = {
        ops: { search: 0, add: 0, delete: 0 },
        ms: { search: [], add: [], delete: [] },
        limited: 0,
        errors: [],
        added: new Set(),
        deleted: new Set(),
      };
      const rss: number[] = [];
      const sampler = setInterval(() => rss.push(rssKb(served.proc.pid!)), 1000);
      const end = Date.now() + SECONDS * 1000;
      const clients: Array<Promise<void>> = [];
      for (let i = 0; i < HTTP_CLIENTS; i++) {
        const token = keys[i % 4]!;
        clients.push(
          runClient(
            `h${i}`,
            (op, docId, text) =>
              op === 'add'
                ? api(token, 'addDocument', { kb_id: KB, doc_id: docId, content: text })
                : op === 'delete'
                  ? api(token, 'deleteDocument', { kb_id: KB, doc_id: docId })
                  : api(token, 'search', { kb_ids: [KB], query: text, top_k: 5 }),
            end,
            t,
          ),
        );
      }
      bridges.forEach((b, i) =>
        clients.push(
          runClient(
            `m${i}`,
            (op, docId, text) =>
              op === 'add'
                ? tool(b, 'add_document', { kb_id: KB, doc_id: docId, content: text })
                : op === 'delete'
                  ? tool(b, 'delete_document', { kb_id: KB, doc_id: docId })
                  : tool(b, 'search_kb', { kb_id: KB, query: text, top_k: 5 }),
            end,
            t,
          ),
        ),
      );
      await Promise.all(clients);
      clearInterval(sampler);

      // On failure, the server's own account of each internal error (its log goes to stderr).
      const internal = served
        .stderr()
        .split('\n')
        .filter((l) => l.includes('internal error'));
      expect({ errors: t.errors, internal: t.errors.length ? internal.slice(0, 5) : [] }).toEqual({ errors: [], internal: [] });
      expect(t.ops.add).toBeGreaterThan(10);
      expect(t.ops.delete).toBeGreaterThan(2);
      // Exactly the acknowledged adds minus the acknowledged deletes are stored.
      const expected = [...t.added].filter((d) => !t.deleted.has(d)).sort();
      const stored: string[] = [];
      for (let offset = 0; ; offset += 1000) {
        const res = await fetch(`${served.url}/api/listDocuments`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${served.token}` },
          body: JSON.stringify({ kb_id: KB, limit: 1000, offset }),
        });
        const body = (await res.json()) as { total: number; documents: Array<{ doc_id: string }> };
        stored.push(...body.documents.map((d) => d.doc_id));
        if (offset + 1000 >= body.total) break;
      }
      expect(stored.sort()).toEqual(expected);
      // Every acknowledged add is found by a search for its own word; every acknowledged delete is gone from search too.
      const search = async (docId: string) => {
        const res = await fetch(`${served.url}/api/search`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${served.token}` },
          body: JSON.stringify({ kb_ids: [KB], query: tokenOf(docId), mode: 'fts', top_k: 5 }),
        });
        return ((await res.json()) as { hits: Array<{ doc_id: string }> }).hits.map((h) => h.doc_id);
      };
      const missing: string[] = [];
      for (const docId of expected) if (!(await search(docId)).includes(docId)) missing.push(docId);
      expect(missing).toEqual([]);
      const resurrected: string[] = [];
      for (const docId of t.deleted) if ((await search(docId)).includes(docId)) resurrected.push(docId);
      expect(resurrected).toEqual([]);
      // RSS: after the first quarter (warm-up), the later half peaks no higher than the earlier half by more than a margin.
      const warm = rss.slice(Math.floor(rss.length / 4));
      const half = Math.floor(warm.length / 2);
      const early = Math.max(...warm.slice(0, half));
      const late = Math.max(...warm.slice(half));
      const pct = (xs: number[], p: number) =>
        Math.round([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0);
      const latency = Object.entries(t.ms)
        .map(([op, xs]) => `${op} p50 ${pct(xs, 0.5)} p95 ${pct(xs, 0.95)} ms`)
        .join(', ');
      process.stderr.write(
        `load: ${SECONDS}s, ops ${JSON.stringify(t.ops)} (${latency}), rate-limited ${t.limited}, stored ${expected.length}, ` +
          `rss MB start ${Math.round(rss[0]! / 1024)} early-peak ${Math.round(early / 1024)} late-peak ${Math.round(late / 1024)} max ${Math.round(Math.max(...rss) / 1024)}\n`,
      );
      expect(late).toBeLessThan(early * 1.25 + 64 * 1024);
    },
    (SECONDS + 240) * 1000,
  );
});
