import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../core/test-support.js';
import { benchAgentBesideUpkeep } from './writes-upkeep.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

describe('benchAgentBesideUpkeep', () => {
  it('adds the folder with the CLI, then each note one at a time, and reports every add and upkeep run', async () => {
    const work = tempDir('ragdesk-agent-bench-');
    const r = await benchAgentBesideUpkeep(ROOT, work, 0.3, [
      { notes: 6, pauseMs: 0 },
      { notes: 2, pauseMs: 10 },
    ]);
    expect(r.kb).toMatch(/^0\.3 MB of Markdown in 2 files, \d+ chunks, full-text only$/);
    expect(r.phases.map((p) => [p.notes, p.pause_ms])).toEqual([
      [6, 0],
      [2, 10],
    ]);
    for (const p of r.phases) {
      expect(p.add_ms.max).toBeGreaterThanOrEqual(p.add_ms.p50);
      expect(p.adds_over_1s).toBeLessThanOrEqual(p.notes);
      // Upkeep took the phase's notes in (flushed before the figures): at least one run was recorded.
      expect(p.upkeep_runs_ms.length).toBeGreaterThan(0);
      expect(p.upkeep_runs_compacted).toBeLessThanOrEqual(p.upkeep_runs_ms.length);
      p.upkeep_runs_locked_ms.forEach((locked, i) => expect(locked).toBeLessThanOrEqual(p.upkeep_runs_ms[i]!));
    }
    expect(r.documents_compaction_ms).toBeGreaterThanOrEqual(0);
    expect(r.bulk_add_s).toBeGreaterThan(0);
    // A full-text KB's bulk rows are compacted before its first index: one fragment.
    expect(r.fragments_after_bulk).toBe(1);
    // The folder's files and the data dir are where the bench put them.
    expect(fs.readdirSync(path.join(work, 'agent-folder'))).toHaveLength(2);
  }, 120_000);
});
