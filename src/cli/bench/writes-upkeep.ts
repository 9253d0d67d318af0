import path from 'node:path';
import { Core } from '../../core/core.js';
import { flushIndexing, upkeepRuns } from '../../core/services/indexing.js';
import { writeMarkdownFolder } from './embed-bench.js';
import { ragdesk, sampleLines } from './memory-bench.js';
import { percentile, round, timeIt } from './stats.js';

/**
 * What the bench runs, one phase after the other on the same KB: notes one agent adds one at a time and the pause
 * between two (the agent's own work). A fast agent writes a fragment per note faster than upkeep comes round, so
 * its upkeeps compact; a slow one's leave the fragments and only build the full-text index again (indexing.ts
 * compactionDue). Each phase ends with upkeep flushed.
 */
export const AGENT_RUNS: readonly AgentRun[] = [
  { notes: 200, pauseMs: 50 },
  { notes: 30, pauseMs: 3000 },
];

export interface AgentRun {
  notes: number;
  pauseMs: number;
}

export interface AgentPhase {
  notes: number;
  pause_ms: number;
  add_ms: { p50: number; p95: number; p99: number; max: number };
  /** Adds that took over a second: those that waited for index upkeep. */
  adds_over_1s: number;
  /** Upkeep runs of the phase, its flush at the end included. */
  upkeep_runs_ms: number[];
  /** How long each of those held the KB's write lock (a full-text build beside writes does not). */
  upkeep_runs_locked_ms: number[];
  /** How many of those runs compacted the table (the others only built the full-text index again). */
  upkeep_runs_compacted: number;
}

export interface AgentBesideUpkeep {
  kb: string;
  /** The spawned `ragdesk add` of the folder (its upkeep at the end included), and the fragments it left. */
  bulk_add_s: number;
  fragments_after_bulk: number;
  phases: AgentPhase[];
  /** The documents table compacted once more at the end, on its own (it holds the small texts only). */
  documents_compaction_ms: number;
}

/**
 * One agent writing beside index upkeep on a large KB: `mb` of Markdown (256 KiB files) added by a spawned
 * `ragdesk add` into a full-text KB, then, as a long-running owner does, each run's single adds of a short note
 * with upkeep running in the background. Upkeep is O(table) under the KB's write lock (a compaction when due, and
 * the full-text index built again), so the add that arrives meanwhile waits for it: the figure is the slowest adds
 * and the runs they waited for.
 */
export async function benchAgentBesideUpkeep(root: string, work: string, mb: number, runs = AGENT_RUNS): Promise<AgentBesideUpkeep> {
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
    const table = (await core.ctx.store.chunks('k'))!;
    const fragments = await table.fragments();
    const lines = sampleLines(root);
    const phases: AgentPhase[] = [];
    let n = 0;
    for (const run of runs) {
      const times: number[] = [];
      const upkeepsBefore = upkeepRuns(core.ctx).length;
      for (let i = 0; i < run.notes; i++, n++) {
        const content = `${Array.from({ length: 8 }, (_, k) => lines[(n * 7 + k) % lines.length]).join('\n')}\nnote ${n}`;
        const t0 = performance.now();
        await core.client.addDocument({ kb_id: 'k', doc_id: `note-${n}`, content });
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, run.pauseMs));
      }
      await flushIndexing(core.ctx);
      const upkeeps = upkeepRuns(core.ctx).slice(upkeepsBefore);
      phases.push({
        notes: run.notes,
        pause_ms: run.pauseMs,
        add_ms: {
          p50: round(percentile(times, 50), 1),
          p95: round(percentile(times, 95), 1),
          p99: round(percentile(times, 99), 1),
          max: round(Math.max(...times), 0),
        },
        adds_over_1s: times.filter((t) => t > 1000).length,
        upkeep_runs_ms: upkeeps.map((r) => round(r.ms, 0)),
        upkeep_runs_locked_ms: upkeeps.map((r) => round(r.lockedMs, 0)),
        upkeep_runs_compacted: upkeeps.filter((r) => r.compacted).length,
      });
    }
    const chunks = await table.count();
    const compaction = await timeIt(() => core.ctx.store.docs.compactIfFragmented(true));
    return {
      kb: `${mb} MB of Markdown in ${files} files, ${chunks} chunks, full-text only`,
      bulk_add_s: round(added.seconds, 1),
      fragments_after_bulk: fragments,
      phases,
      documents_compaction_ms: round(compaction.ms, 0),
    };
  } finally {
    await core.close();
  }
}
