import path from 'node:path';
import { Core } from '../../core/core.js';
import { flushIndexing, upkeepRuns } from '../../core/services/indexing.js';
import { writeMarkdownFolder } from './embed-bench.js';
import { ragdesk, sampleLines } from './memory-bench.js';
import { percentile, round, timeIt } from './stats.js';

/** What the bench runs: notes one agent adds one at a time, and the pause between two (the agent's own work). */
export const AGENT_RUN = { notes: 200, pauseMs: 50 };

export interface AgentBesideUpkeep {
  kb: string;
  notes: number;
  add_ms: { p50: number; p95: number; p99: number; max: number };
  /** Adds that took over a second: those that waited for index upkeep. */
  adds_over_1s: number;
  upkeep_runs_ms: number[];
  /** How many of those runs compacted the table (the others only built the full-text index again). */
  upkeep_runs_compacted: number;
  /** The documents table compacted once more at the end, on its own (it holds the small texts only). */
  documents_compaction_ms: number;
}

/**
 * One agent writing beside index upkeep on a large KB: `mb` of Markdown (256 KiB files) added by a spawned
 * `ragdesk add` into a full-text KB, then, as a long-running owner does, `run.notes` single adds of a short note
 * `run.pauseMs` apart with upkeep running in the background. Upkeep compacts the chunk table and builds its full-text
 * index again (O(table)) under the KB's write lock, so the add that arrives meanwhile waits for it: the figure is
 * the slowest adds and the runs they waited for.
 */
export async function benchAgentBesideUpkeep(root: string, work: string, mb: number, run = AGENT_RUN): Promise<AgentBesideUpkeep> {
  const folder = path.join(work, 'agent-folder');
  const dataDir = path.join(work, 'agent-data');
  const files = writeMarkdownFolder(root, folder, mb * 1024 * 1024);
  const base = ['--data-dir', dataDir, '--no-download'];
  const created = await ragdesk(root, [...base, 'kb', 'create', 'k', '--model', 'none']);
  if (created.code !== 0) throw new Error(`kb create failed: ${created.stderr}`);
  const added = await ragdesk(root, [...base, 'add', folder, '--kb', 'k']);
  if (added.code !== 0) throw new Error(`ragdesk add failed: ${added.stderr}`);
  const core = await Core.open({ dataDir, allowDownload: false });
  try {
    const lines = sampleLines(root);
    const times: number[] = [];
    for (let i = 0; i < run.notes; i++) {
      const content = `${Array.from({ length: 8 }, (_, k) => lines[(i * 7 + k) % lines.length]).join('\n')}\nnote ${i}`;
      const t0 = performance.now();
      await core.client.addDocument({ kb_id: 'k', doc_id: `note-${i}`, content });
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, run.pauseMs));
    }
    await flushIndexing(core.ctx);
    const chunks = await (await core.ctx.store.chunks('k'))!.count();
    const compaction = await timeIt(() => core.ctx.store.docs.compactIfFragmented(true));
    return {
      kb: `${mb} MB of Markdown in ${files} files, ${chunks} chunks, full-text only`,
      notes: run.notes,
      add_ms: {
        p50: round(percentile(times, 50), 1),
        p95: round(percentile(times, 95), 1),
        p99: round(percentile(times, 99), 1),
        max: round(Math.max(...times), 0),
      },
      adds_over_1s: times.filter((t) => t > 1000).length,
      upkeep_runs_ms: upkeepRuns(core.ctx).map((r) => round(r.ms, 0)),
      upkeep_runs_compacted: upkeepRuns(core.ctx).filter((r) => r.compacted).length,
      documents_compaction_ms: round(compaction.ms, 0),
    };
  } finally {
    await core.close();
  }
}
