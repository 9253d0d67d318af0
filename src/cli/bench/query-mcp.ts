import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readProfileDir, summariseProfile, type ProfileSummary } from './cpu-profile.js';
import { afterPauses, pipeFloor, type PipeFloor } from './query-idle.js';
import { percentile, round } from './stats.js';

/**
 * The MCP side of the `query` bench: `search_kb` over stdio with the SDK client against `node bin/ragdesk.js
 * --data-dir D mcp` (fts top_k 10 and 50, hybrid top_k 10), cold starts (spawn → tools/list, then the first
 * hybrid search), and a second server run under `node --cpu-prof` whose profile is summarised over the window
 * of its fts calls only (the client and the server read the same monotonic clock).
 */

export const WARMUP = 30;
const START_RUNS = 5;
/**
 * The pause before the first search in the second set of cold starts: an agent's first tool call comes after its
 * model's first turn, seconds after tools/list, and the server warms up meanwhile (see core/services/warm-up.ts).
 */
export const FIRST_CALL_PAUSE_MS = 3000;
/** Warm searches (and echo round trips) made FIRST_CALL_PAUSE_MS after the call before: the first call's control. */
const PAUSED_RUNS = 3;

export type Series = Record<string, number[]>;

export interface StartRun {
  /** How long the client waited after tools/list before its first search. */
  pause_ms: number;
  tools_list_ms: number;
  first_search_ms: number;
  /** Spawn → the first hybrid answer with the model loaded (no degradation note). */
  full_hybrid_ms: number;
  degraded: boolean;
  note?: string;
}

export interface McpFigures {
  series: Series;
  /** First search right after tools/list (it waits for the warm-up), then FIRST_CALL_PAUSE_MS after it. */
  starts: StartRun[];
  startsPaused: StartRun[];
  /** A warm server's hybrid searches, each FIRST_CALL_PAUSE_MS after its last call (ms): what the pause alone costs. */
  warmPaused: number[];
  /** A pipe round trip to an echo process, back to back and FIRST_CALL_PAUSE_MS after the last: the machine's floor. */
  pipe: PipeFloor;
  /** Mean size of a search_kb result as JSON (what crosses the pipe), and of its structuredContent alone, per call kind. */
  responseBytes: Record<string, number>;
  profile: (ProfileSummary & { fts_calls: number; busy_ms_per_call: number }) | { error: string };
  /** The server's main thread from spawn to tools/list answered. */
  startProfile: ProfileSummary | { error: string };
  /** Spawn → exit medians: `node -e 0` and `node bin/ragdesk.js --version` (loading the CLI bundle, no data dir). */
  floors: Record<string, number>;
}

/** Time one call and push its duration (ms) onto series[key]. */
export async function timed<T>(series: Series, key: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await fn();
  (series[key] ??= []).push(performance.now() - t);
  return out;
}

/** The child processes' environment: offline, no key or data dir inherited from the caller. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'RAGDESK_API_KEY' && k !== 'RAGDESK_DATA_DIR') env[k] = v;
  return { ...env, RAGDESK_OFFLINE: '1', HF_HUB_OFFLINE: '1' };
}

interface Job {
  root: string;
  dataDir: string;
  kbId: string;
  queries: string[];
  profileDir: string;
  log: (s: string) => void;
}

async function connect(job: Job, nodeArgs: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, path.join(job.root, 'bin', 'ragdesk.js'), '--data-dir', job.dataDir, 'mcp'],
    env: childEnv(),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'ragdesk-bench-query', version: '1' });
  await client.connect(transport);
  return client;
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;

async function searchKb(client: Client, job: Job, query: string, mode: 'fts' | 'hybrid', topK: number): Promise<CallResult> {
  const res = await client.callTool({ name: 'search_kb', arguments: { kb_id: job.kbId, query, mode, top_k: topK, use_rerank: false } });
  if (res.isError) throw new Error(`search_kb failed: ${JSON.stringify(res.content).slice(0, 500)}`);
  return res;
}

const noteOf = (res: CallResult) => (res.structuredContent as { note?: string } | undefined)?.note;

/** Hybrid calls until the server's model is loaded (no degradation note), at least WARMUP of them. */
async function warm(client: Client, job: Job): Promise<void> {
  for (let i = 0, ready = false; !ready || i < WARMUP; i++) {
    ready = !noteOf(await searchKb(client, job, job.queries[i % job.queries.length]!, 'hybrid', 10));
    if (i > 2000) throw new Error('the embedding model did not load in the MCP server');
    if (!ready) await new Promise((r) => setTimeout(r, 20));
  }
}

/** Spawn → tools/list answered, then (after `pauseMs`) the first hybrid search, START_RUNS times (a fresh server each). */
async function coldStarts(job: Job, pauseMs: number): Promise<StartRun[]> {
  const runs: StartRun[] = [];
  for (let i = 0; i < START_RUNS; i++) {
    const t = performance.now();
    const client = await connect(job);
    try {
      await client.listTools();
      const listed = performance.now() - t;
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      const s = performance.now();
      let res = await searchKb(client, job, job.queries[WARMUP + i]!, 'hybrid', 10);
      const firstMs = performance.now() - s;
      const note = noteOf(res);
      for (let k = 1; noteOf(res); k++) {
        if (k > 3000) throw new Error('the embedding model did not load in the MCP server');
        await new Promise((r) => setTimeout(r, 10));
        res = await searchKb(client, job, job.queries[WARMUP + i]!, 'hybrid', 10);
      }
      runs.push({
        pause_ms: pauseMs,
        tools_list_ms: listed,
        first_search_ms: firstMs,
        full_hybrid_ms: performance.now() - t,
        degraded: Boolean(note),
        ...(note ? { note } : {}),
      });
    } finally {
      await client.close();
    }
  }
  return runs;
}

/** Timed calls, interleaved per query: a ping (the stdio round trip alone), fts 10, fts 50, hybrid 10. */
async function timedCalls(client: Client, job: Job, series: Series, bytes: Record<string, number[]>): Promise<void> {
  for (const q of job.queries) {
    await timed(series, 'mcp ping', () => client.ping());
    for (const [mode, topK] of [
      ['fts', 10],
      ['fts', 50],
      ['hybrid', 10],
    ] as const) {
      const key = `mcp ${mode} ${topK}`;
      const res = await timed(series, key, () => searchKb(client, job, q, mode, topK));
      (bytes[key] ??= []).push(Buffer.byteLength(JSON.stringify(res)));
      (bytes[`${key} structuredContent`] ??= []).push(Buffer.byteLength(JSON.stringify(res.structuredContent ?? null)));
    }
  }
}

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** A server under --cpu-prof: warm it, then fts calls only (10 and 50), the profile read over their window. */
async function profiled(job: Job): Promise<McpFigures['profile']> {
  fs.rmSync(job.profileDir, { recursive: true, force: true });
  fs.mkdirSync(job.profileDir, { recursive: true });
  const client = await connect(job, ['--cpu-prof', `--cpu-prof-dir=${job.profileDir}`]);
  let window: [number, number];
  let calls = 0;
  try {
    await warm(client, job);
    const from = monotonicUs();
    for (const q of job.queries)
      for (const topK of [10, 50]) {
        await searchKb(client, job, q, 'fts', topK);
        calls++;
      }
    window = [from, monotonicUs()];
  } finally {
    await client.close();
  }
  // The profile is written as the server exits; close() waited for that (or killed it after 4 s).
  const profile = await readProfileDir(job.profileDir);
  if (!profile) return { error: 'the profiled server wrote no .cpuprofile (killed before it exited?)' };
  const summary = summariseProfile(profile, { window, top: 15 });
  return { ...summary, fts_calls: calls, busy_ms_per_call: round(summary.busy_ms / calls, 3) };
}

/** A server under --cpu-prof from spawn to tools/list answered: what its start spends the main thread on. */
async function startProfile(job: Job): Promise<McpFigures['startProfile']> {
  const dir = `${job.profileDir}-start`;
  fs.rmSync(dir, { recursive: true, force: true });
  const from = monotonicUs();
  const client = await connect(job, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let window: [number, number];
  try {
    await client.listTools();
    window = [from, monotonicUs()];
  } finally {
    await client.close();
  }
  const profile = await readProfileDir(dir);
  if (!profile) return { error: 'the profiled server wrote no .cpuprofile' };
  // The profile starts once node is up: the window's start clips to it.
  return summariseProfile(profile, { window: [Math.max(window[0], profile.startTime), window[1]], top: 12 });
}

/** Median ms from spawn to exit of `node args`, over 5 runs. */
async function spawnToExit(args: string[]): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, { env: childEnv(), stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`node ${args.join(' ')} exited with ${code}`))));
    });
    runs.push(performance.now() - t);
  }
  return round(percentile(runs, 50));
}

export async function mcpPhase(job: Job): Promise<McpFigures> {
  const floors = {
    'node -e 0': await spawnToExit(['-e', '0']),
    'node bin/ragdesk.js --version': await spawnToExit([path.join(job.root, 'bin', 'ragdesk.js'), '--version']),
  };
  const starts = await coldStarts(job, 0);
  const startsPaused = await coldStarts(job, FIRST_CALL_PAUSE_MS);
  const start = await startProfile(job);
  const series: Series = {};
  const bytes: Record<string, number[]> = {};
  const client = await connect(job);
  let warmPaused: number[];
  try {
    await warm(client, job);
    await timedCalls(client, job, series, bytes);
    let q = WARMUP + START_RUNS;
    const next = () => searchKb(client, job, job.queries[q++ % job.queries.length]!, 'hybrid', 10);
    warmPaused = await afterPauses(next, FIRST_CALL_PAUSE_MS, PAUSED_RUNS);
  } finally {
    await client.close();
  }
  job.log('  query: profiled server (node --cpu-prof), fts calls…');
  const profile = await profiled(job);
  const responseBytes = Object.fromEntries(
    Object.entries(bytes).map(([k, xs]) => [k, Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length))]),
  );
  const pipe = await pipeFloor(FIRST_CALL_PAUSE_MS, PAUSED_RUNS);
  return { series, starts, startsPaused, warmPaused, pipe, responseBytes, profile, startProfile: start, floors };
}
