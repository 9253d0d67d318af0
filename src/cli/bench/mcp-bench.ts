import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { OWNER } from '../../core/auth/scope.js';
import { Core } from '../../core/core.js';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { startHttpServer } from '../../http/server.js';
import { LocalBackend } from '../../mcp/local-backend.js';
import { createMcpServer } from '../../mcp/server.js';
import { childEnv } from './query-mcp.js';
import { startServe } from './serve-process.js';
import { percentile, round } from './stats.js';

/**
 * MCP costs, measured with the official SDK client against the fixture model (nothing is downloaded):
 * - stdio start: spawn `ragdesk mcp` → `tools/list` answered (target ≤ 1 s);
 * - per-call overhead of `search_kb` over stdio and over HTTP versus the in-process `core.search` on the same
 *   data (target ≤ 3 ms);
 * - HTTP throughput: 16 concurrent loopback clients calling `search_kb` for ~5 s against `ragdesk serve`.
 */

const CALLS = 200;
const WARMUP = 30;
const CLIENTS = 16;
const THROUGHPUT_MS = 5000;
const START_RUNS = 5;
const QUERIES = [
  'heart disease blood pressure',
  'customs duties on imported goods',
  'coffee tea milk',
  'forest river trees',
  'bank money report',
];
const TOPICS = [
  'Heart disease and blood pressure raise the risk for patients; a doctor and the hospital treat the illness.',
  'Customs duties are a tax on import and export goods at the border under the trade law.',
  'Coffee, tea, milk and bread: food and drink people cook in the kitchen every day.',
  'The forest has trees, birds and a river; water flows from the mountain to the sea.',
  'The bank report shows money, market prices and the business year of the company.',
  'Students read books at school; the teacher gives a long study of the language.',
  'Software, code, network and database speed matter for the computer and its memory.',
  'Football, music, art and games: the team plays and wins in summer and winter.',
];

const median = (xs: number[]) => percentile(xs, 50);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How to start the CLI: the built bundle when there is one, else the TypeScript sources through tsx. */
function cliCommand(): { args: string[]; entry: string } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = [path.resolve('out/main/cli.js'), path.resolve(here, 'cli.js'), path.resolve(here, '../cli.js')].find((p) =>
    fs.existsSync(p),
  );
  // A stale or broken build must not decide the numbers: use it only when its `mcp` command answers.
  if (built && spawnSync(process.execPath, [built, 'mcp', '--help'], { stdio: 'ignore', timeout: 30_000 }).status === 0)
    return { args: [built], entry: built };
  const src = [path.resolve(here, '../index.ts'), path.resolve('src/cli/index.ts')].find((p) => fs.existsSync(p));
  if (!src) throw new Error('neither out/main/cli.js nor src/cli/index.ts was found');
  return { args: ['--import', 'tsx', src], entry: `tsx ${src}` };
}

async function seed(dataDir: string, modelDir: string, docs: number): Promise<void> {
  const core = await Core.open({ dataDir, allowDownload: false });
  try {
    await core.client.createKb({ kb_id: 'bench', embedding_model: modelDir });
    const documents = Array.from({ length: docs }, (_, i) => ({
      doc_id: `d${i}`,
      title: `Doc ${i}`,
      content: `${TOPICS[i % TOPICS.length]} Item ${i}.`,
      metadata: { n: i },
    }));
    await core.client.addDocumentsBatch({ kb_id: 'bench', documents });
  } finally {
    await core.close();
  }
}

const searchArgs = (i: number) => ({
  kb_id: 'bench',
  query: QUERIES[i % QUERIES.length]!,
  top_k: 5,
  use_rerank: false,
  mode: 'hybrid' as const,
});

/** Call search_kb until the server's model is loaded (no degradation note) and at least WARMUP times. */
async function warm(client: Client): Promise<void> {
  for (let i = 0, ready = false; !ready || i < WARMUP; i++) {
    const res = await client.callTool({ name: 'search_kb', arguments: searchArgs(i) });
    ready = !(res.structuredContent as { note?: string } | undefined)?.note;
    if (i > 2000) throw new Error('the embedding model did not load in the MCP server');
    if (!ready) await sleep(20);
  }
}

/** `CALLS` timed search_kb calls, one at a time, after warming up. */
async function timeToolCalls(client: Client): Promise<number[]> {
  await warm(client);
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    const res = await client.callTool({ name: 'search_kb', arguments: searchArgs(i) });
    times.push(performance.now() - t);
    if (res.isError) throw new Error(`search_kb failed: ${JSON.stringify(res.content)}`);
  }
  return times;
}

async function stdioClient(dataDir: string, cli: { args: string[] }): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cli.args, 'mcp', '--data-dir', dataDir],
    env: childEnv(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'ragdesk-bench', version: '1' });
  await client.connect(transport);
  return client;
}

async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'ragdesk-bench', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

async function stdioStart(cli: { args: string[] }, root: string): Promise<number[]> {
  const runs: number[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    const dir = path.join(root, `start-${i}`);
    const t = performance.now();
    const client = await stdioClient(dir, cli);
    const { tools } = await client.listTools();
    runs.push(performance.now() - t);
    if (tools.length !== 13) throw new Error(`expected 13 tools, got ${tools.length}`);
    await client.close();
    await sleep(300);
  }
  return runs;
}

async function throughput(url: string, token: string): Promise<Record<string, unknown>> {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => httpClient(url, token)));
  await warm(clients[0]!);
  let ok = 0;
  let errors = 0;
  const latencies: number[] = [];
  const end = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  await Promise.all(
    clients.map(async (c, ci) => {
      for (let i = ci; performance.now() < end; i += CLIENTS) {
        const t = performance.now();
        try {
          const res = await c.callTool({ name: 'search_kb', arguments: searchArgs(i) });
          if (res.isError) errors++;
          else ok++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  return {
    clients: CLIENTS,
    seconds: round(secs, 1),
    requests: ok + errors,
    errors,
    req_per_s: round(ok / secs, 0),
    latency_ms_p50: round(median(latencies)),
    latency_ms_p95: round(percentile(latencies, 95)),
  };
}

export async function benchMcp(): Promise<Record<string, unknown>> {
  const cli = cliCommand();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-mcp-bench-'));
  const children: ChildProcess[] = [];
  let core: Core | undefined;
  try {
    const model = await buildFixtureModel(path.join(root, 'model'), { dim: 64 });
    const dirA = path.join(root, 'in-process');
    await seed(dirA, model.dir, 200);
    const dirB = path.join(root, 'served');
    const dirC = path.join(root, 'stdio');
    fs.cpSync(dirA, dirB, { recursive: true });
    fs.cpSync(dirA, dirC, { recursive: true });

    const start = await stdioStart(cli, root);

    // In-process baseline, then the same engine behind MCP in memory and behind the HTTP server.
    core = await Core.open({ dataDir: dirA, allowDownload: false });
    await core.ctx.models.getEmbedder(model.dir);
    const engine = core;
    for (let i = 0; i < WARMUP; i++) await engine.client.search(searchArgs(i));
    const inproc: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await engine.client.search(searchArgs(i));
      inproc.push(performance.now() - t);
    }
    const server = createMcpServer({ backend: async () => new LocalBackend({ core: () => engine, principal: () => OWNER }) });
    const memClient = new Client({ name: 'ragdesk-bench', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await memClient.connect(b);
    const memory = await timeToolCalls(memClient);
    await memClient.close();
    const http = await startHttpServer({ core: engine, ownerToken: engine.lock!.info.token, port: 0, rateLimit: false });
    const hClient = await httpClient(http.url, engine.lock!.info.token);
    const overHttp = await timeToolCalls(hClient);
    await hClient.close();
    await http.close();

    const stdio = await stdioClient(dirC, cli);
    const overStdio = await timeToolCalls(stdio);
    await stdio.close();

    const served = await startServe(dirB, cli);
    children.push(served.proc);
    const load = await throughput(served.url, served.token);

    const base = median(inproc);
    const line = (xs: number[]) => ({
      median_ms: round(median(xs)),
      p95_ms: round(percentile(xs, 95)),
      overhead_ms: round(median(xs) - base),
    });
    return {
      cli_entry: cli.entry,
      kb: { documents: 200, model: 'fixture (dim 64)', search: 'hybrid, top_k 5, no rerank' },
      stdio_start_to_tools_list_ms: { median: round(median(start)), runs: start.map((x) => round(x, 0)), target: 1000 },
      search_kb_per_call: {
        calls: CALLS,
        in_process_core_search: { median_ms: round(base), p95_ms: round(percentile(inproc, 95)) },
        mcp_in_memory: line(memory),
        http: line(overHttp),
        stdio: line(overStdio),
        target_overhead_ms: 3,
      },
      http_throughput: load,
    };
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await core?.close().catch(() => undefined);
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    fs.rmSync(root, { recursive: true, force: true });
  }
}
