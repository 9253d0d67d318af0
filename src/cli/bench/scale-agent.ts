import { setTimeout as sleep } from 'node:timers/promises';
import { Core } from '../../core/core.js';
import { search } from '../../core/search/search-service.js';
import { upkeepRuns } from '../../core/services/indexing.js';
import { percentile, round, rssMb } from './stats.js';

/** An agent's writes into the scale bench's KB while a search loop runs (`bench --only scale --agent-seconds N`). */
export interface AgentJob {
  dataDir: string;
  kb: string;
  queries: string[];
  seconds: number;
  /** Between two writes. */
  writeEveryMs: number;
  /** Searches of the settled KB timed before the first write (after 20 untimed); 100 unless given. */
  settledSearches?: number;
}

export interface AgentReport {
  seconds: number;
  writes: number;
  write_p50_ms: number;
  write_max_ms: number;
  upkeep_runs: number;
  upkeep_ms: number[];
  /** How long each run held the KB's write lock (what a write arriving meanwhile waits for). */
  upkeep_locked_ms: number[];
  renewals: number;
  searches: number;
  /** Hybrid top_k 10, before the first write (the KB settled) and while the agent writes. */
  settled_p50_ms: number;
  settled_p99_ms: number;
  writing_p50_ms: number;
  writing_p99_ms: number;
  /** RSS sampled every 100 ms: before the first write, and at most while the agent writes. */
  rss_settled_mb: number;
  peak_rss_mb: number;
  /** LanceDB's count of the table's caches at the end (what renewals bound: store/lance-session.ts RENEW_AT_BYTES). */
  cache_mb_end: number;
}

const SETTLED_SEARCHES = 100;
const PAUSE_MS = 100;
const TOP_K = 10;

/**
 * What a long-lived process does at scale when an agent writes one document every `writeEveryMs` while searches go
 * on (hybrid, one at a time with a 100 ms pause), upkeep by the product's own scheduler: search latency against the
 * settled KB's, how long a write waits (behind a compaction, under the KB's write lock), upkeep runs, connection
 * renewals and the process's RSS (the full-text builds and the indexes they leave in LanceDB's cache). The agent's
 * documents are deleted at the end, so that a kept KB (RAGDESK_SCALE_DATA) stays the size it was built at.
 */
export async function agentPhase(job: AgentJob): Promise<AgentReport> {
  const core = await Core.open({ dataDir: job.dataDir, allowDownload: false });
  const ctx = core.ctx;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 100);
  const docIds: string[] = [];
  try {
    let next = 0;
    const query = () => job.queries[next++ % job.queries.length]!;
    const searchOnce = async () => {
      const t = performance.now();
      await search(ctx, { query: query(), kb_ids: [job.kb], mode: 'hybrid', top_k: TOP_K, use_rerank: false });
      return performance.now() - t;
    };
    const settled: number[] = [];
    for (let i = 0; i < 20 + (job.settledSearches ?? SETTLED_SEARCHES); i++) {
      const ms = await searchOnce();
      if (i >= 20) settled.push(ms);
      await sleep(PAUSE_MS);
    }
    const rssSettled = rssMb();
    peak = rssSettled;
    const runsBefore = upkeepRuns(ctx).length;
    const table = (await ctx.store.chunks(job.kb))!;
    const renewalsBefore = table.renewals;
    const writing: number[] = [];
    const writeMs: number[] = [];
    let stop = false;
    let writeFailed: { error: unknown } | undefined;
    const writer = (async () => {
      for (let w = 0; !stop; w++) {
        const doc_id = `bench-agent-${process.pid}-${w}`;
        const content = job.queries.slice((w * 20) % job.queries.length, ((w * 20) % job.queries.length) + 20).join('\n\n');
        const t = performance.now();
        await core.client.addDocument({
          kb_id: job.kb,
          doc_id,
          title: `agent note ${w}`,
          content: `note ${w} of ${process.pid}\n\n${content}`,
        });
        writeMs.push(performance.now() - t);
        docIds.push(doc_id);
        const until = performance.now() + job.writeEveryMs;
        while (!stop && performance.now() < until) await sleep(Math.min(500, until - performance.now()));
      }
    })().catch((error: unknown) => {
      writeFailed = { error };
      stop = true;
    });
    const end = performance.now() + job.seconds * 1000;
    while (!stop && performance.now() < end) {
      writing.push(await searchOnce());
      await sleep(PAUSE_MS);
    }
    stop = true;
    await writer;
    if (writeFailed) throw writeFailed.error;
    const runs = upkeepRuns(ctx).slice(runsBefore);
    const current = (await ctx.store.chunks(job.kb))!;
    return {
      seconds: job.seconds,
      writes: writeMs.length,
      write_p50_ms: round(percentile(writeMs, 50)),
      write_max_ms: round(Math.max(...writeMs)),
      upkeep_runs: runs.length,
      upkeep_ms: runs.map((r) => Math.round(r.ms)),
      upkeep_locked_ms: runs.map((r) => Math.round(r.lockedMs)),
      renewals: current === table ? current.renewals - renewalsBefore : current.renewals,
      searches: writing.length,
      settled_p50_ms: round(percentile(settled, 50)),
      settled_p99_ms: round(percentile(settled, 99)),
      writing_p50_ms: round(percentile(writing, 50)),
      writing_p99_ms: round(percentile(writing, 99)),
      rss_settled_mb: rssSettled,
      peak_rss_mb: peak,
      cache_mb_end: Math.round(current.cacheBytes / 1e6),
    };
  } finally {
    clearInterval(sampler);
    for (const doc_id of docIds) await core.client.deleteDocument({ kb_id: job.kb, doc_id }).catch(() => undefined);
    await core.close();
  }
}
