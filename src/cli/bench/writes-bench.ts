import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { OWNER } from '../../core/auth/scope.js';
import type { Core } from '../../core/core.js';
import { createModelManager } from '../../core/embed/model-manager.js';
import { runEval, type EvalDoc, type EvalReport } from '../../core/eval/run-eval.js';
import { upkeepRuns } from '../../core/services/indexing.js';
import { LocalBackend } from '../../mcp/local-backend.js';
import { createMcpServer } from '../../mcp/server.js';
import { percentile, round, rssMb } from './stats.js';
import { benchAgentBesideUpkeep } from './writes-upkeep.js';

/** The large KB the agent writes beside (writes-upkeep.ts). */
const AGENT_KB_MB = 100;

/**
 * The write path of a long-running owner, on SciFact (5,183 documents, 300 judged queries) with the small real
 * English model from ../shared/models (full-text only without it):
 * - read-your-writes: the collection added one document per MCP add_document call, scored in the state the
 *   writes left it (no forced upkeep), against `ragdesk eval`'s bulk figure: the gap must stay within 0.002;
 * - what each write costs: add_document latency early and late, overwrite and delete on the full KB, a search
 *   right after a write, and index upkeep (optimize) runs with their size and duration;
 * - cross-KB ranking: the collection split over two KBs (alternating doc ids) against one KB, fts and hybrid;
 * - one agent's single adds beside index upkeep on a KB of AGENT_KB_MB of Markdown (writes-upkeep.ts).
 */

const MODES = ['fts', 'hybrid'] as const;

interface WriteCosts {
  add_ms: { first_500_p50: number; first_500_p95: number; last_500_p50: number; last_500_p95: number };
  overwrite_ms: { p50: number; p95: number };
  delete_ms: { p50: number; p95: number };
  search_after_write_ms: { p50: number; p95: number };
  search_clean_ms: { p50: number; p95: number };
  upkeep: { runs: number; largest_rows: number; ms_p50: number; ms_max: number };
}

const stats = (xs: number[]) => ({ p50: round(percentile(xs, 50), 1), p95: round(percentile(xs, 95), 1) });

/** What the single adds record: each call's ms, the unindexed rows left, the process's RSS (MB) along the way. */
interface SingleAdds {
  add: number[];
  unindexedAtScoring?: number;
  rss: number[];
}

const RSS_EVERY = 250;

/**
 * One add_document call per document through an MCP client (in-process transport), timing each call, and the RSS
 * before the first and after every RSS_EVERY: a long-lived process written one document at a time must not grow with
 * the writes (docs/benchmarks.md, round of 2026-12-07).
 */
function throughMcp(costs: SingleAdds) {
  return async (core: Core, kbId: string, docs: EvalDoc[]): Promise<void> => {
    const server = createMcpServer({ backend: async () => new LocalBackend({ core: () => core, principal: () => OWNER }) });
    const client = new Client({ name: 'ragdesk-bench-writes', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    await client.connect(b);
    try {
      costs.rss.push(rssMb());
      for (const [i, d] of docs.entries()) {
        const t0 = performance.now();
        const res = await client.callTool({
          name: 'add_document',
          arguments: { kb_id: kbId, doc_id: d.doc_id, title: d.title, content: d.content },
        });
        costs.add.push(performance.now() - t0);
        if (res.isError) throw new Error(`add_document ${d.doc_id} failed: ${JSON.stringify(res.content)}`);
        if ((i + 1) % RSS_EVERY === 0 && i + 1 < docs.length) costs.rss.push(rssMb());
      }
      costs.rss.push(rssMb());
      // What the searches that score this run will find not yet folded into the index.
      costs.unindexedAtScoring = await (await core.ctx.store.chunks(kbId))!.unindexedRows();
    } finally {
      await client.close();
      await server.close();
    }
  };
}

/** On the full KB: overwrites, deletes (re-added after), and searches right after a write versus on a settled index. */
async function probeCosts(core: Core, kbId: string, out: Partial<WriteCosts>): Promise<void> {
  const docs = (await core.ctx.store.docs.listAll(kbId)).map((d) => d.doc_id);
  const overwrite: number[] = [];
  const del: number[] = [];
  const afterWrite: number[] = [];
  const clean: number[] = [];
  const sample: EvalDoc[] = [];
  for (const id of docs.filter((_, i) => i % 50 === 7).slice(0, 60)) {
    const d = await core.client.getDocument({ kb_id: kbId, doc_id: id });
    sample.push({ doc_id: d.doc_id, title: d.title, content: d.content });
  }
  const search = () => core.client.search({ kb_ids: [kbId], query: 'vitamin D deficiency and bone density', mode: 'fts', top_k: 10 });
  for (const d of sample) {
    let t0 = performance.now();
    await core.client.addDocument({ kb_id: kbId, ...d, content: `${d.content} (revised)`, overwrite: true });
    overwrite.push(performance.now() - t0);
    t0 = performance.now();
    await search();
    afterWrite.push(performance.now() - t0);
    t0 = performance.now();
    await core.client.addDocument({ kb_id: kbId, ...d, overwrite: true });
    overwrite.push(performance.now() - t0);
  }
  for (const d of sample.slice(0, 30)) {
    const t0 = performance.now();
    await core.client.deleteDocument({ kb_id: kbId, doc_id: d.doc_id });
    del.push(performance.now() - t0);
    await core.client.addDocument({ kb_id: kbId, ...d });
  }
  // Let upkeep run, then measure searches on a settled index.
  const { flushIndexing } = await import('../../core/services/indexing.js');
  await flushIndexing(core.ctx);
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await search();
    clean.push(performance.now() - t0);
  }
  out.overwrite_ms = stats(overwrite);
  out.delete_ms = stats(del);
  out.search_after_write_ms = stats(afterWrite);
  out.search_clean_ms = stats(clean);
  const runs = upkeepRuns(core.ctx).filter((r) => r.kb_id === kbId);
  const ms = runs.map((r) => r.ms);
  out.upkeep = {
    runs: runs.length,
    largest_rows: Math.max(0, ...runs.map((r) => r.rows)),
    ms_p50: round(percentile(ms, 50), 0),
    ms_max: round(Math.max(0, ...ms), 0),
  };
}

const ndcg = (reports: EvalReport[], mode: string) => reports.find((r) => r.mode === mode)?.ndcg_at_10 ?? NaN;

export async function benchWrites(root: string, work: string, log: (s: string) => void): Promise<Record<string, unknown>> {
  log(`  one agent's single adds beside index upkeep on a KB of ${AGENT_KB_MB} MB…`);
  const agent = await benchAgentBesideUpkeep(root, work, AGENT_KB_MB);
  const shared = process.env.RAGDESK_SHARED ?? path.resolve(root, '..', 'shared');
  const dataset = path.join(shared, 'datasets', 'scifact');
  if (!fs.existsSync(dataset)) return { skipped: `needs ${dataset}`, agent_beside_upkeep: agent };
  const modelDir = path.join(shared, 'models', 'potion-base-4M-int8');
  const hasModel = fs.existsSync(modelDir);
  const model = hasModel ? modelDir : 'none';
  const modes = hasModel ? [...MODES] : ['fts' as const];
  const models = createModelManager({ dataDir: path.join(work, 'writes-models'), allowDownload: false });
  try {
    const base = { dataset, model, models, modes: [...modes] };
    log('  bulk (batches of 500, then upkeep)…');
    const bulk = await runEval(base);
    log('  one add_document call per document…');
    const tally: SingleAdds = { add: [], rss: [] };
    const costs: Partial<WriteCosts> = {};
    const single = await runEval({ ...base, ingest: throughMcp(tally), after: (core, [kbId]) => probeCosts(core, kbId!, costs) });
    const add = tally.add;
    costs.add_ms = {
      first_500_p50: round(percentile(add.slice(0, 500), 50), 1),
      first_500_p95: round(percentile(add.slice(0, 500), 95), 1),
      last_500_p50: round(percentile(add.slice(-500), 50), 1),
      last_500_p95: round(percentile(add.slice(-500), 95), 1),
    };
    log('  split over two KBs…');
    const split = await runEval({ ...base, splitKbs: 2 });
    const rows = modes.map((mode) => ({
      mode,
      bulk: ndcg(bulk, mode),
      one_by_one: ndcg(single, mode),
      one_by_one_gap: round(Math.abs(ndcg(single, mode) - ndcg(bulk, mode)), 4),
      split_2_kbs: ndcg(split, mode),
      split_gap: round(Math.abs(ndcg(split, mode) - ndcg(bulk, mode)), 4),
    }));
    return {
      dataset: 'scifact',
      model: hasModel ? 'potion-base-4M-int8' : 'none (full-text only)',
      ndcg_at_10: rows,
      one_by_one_within_0_002: rows.every((r) => r.one_by_one_gap <= 0.002),
      unindexed_rows_when_scored: tally.unindexedAtScoring,
      // The bench's process (the bulk run before it included): before the first add, the most, after the last.
      single_adds_rss_mb: { before: tally.rss[0], peak: Math.max(...tally.rss), after: tally.rss.at(-1), every: RSS_EVERY },
      split_within_0_01: rows.every((r) => r.split_gap <= 0.01),
      write_costs: costs,
      agent_beside_upkeep: agent,
    };
  } finally {
    await models.dispose();
  }
}
