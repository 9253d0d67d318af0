import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../core/test-support.js';
import { benchAgentBesideUpkeep } from './writes-upkeep.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

describe('benchAgentBesideUpkeep', () => {
  it('adds the folder with the CLI, then each note one at a time, and reports every add and upkeep run', async () => {
    const work = tempDir('ragdesk-agent-bench-');
    const r = await benchAgentBesideUpkeep(ROOT, work, 0.3, { notes: 6, pauseMs: 0 });
    expect(r.notes).toBe(6);
    expect(r.kb).toMatch(/^0\.3 MB of Markdown in 2 files, \d+ chunks, full-text only$/);
    expect(r.add_ms.max).toBeGreaterThanOrEqual(r.add_ms.p50);
    expect(r.adds_over_1s).toBeLessThanOrEqual(6);
    // Upkeep took the notes in (flushed before the figures): at least one run was recorded.
    expect(r.upkeep_runs_ms.length).toBeGreaterThan(0);
    expect(r.documents_compaction_ms).toBeGreaterThanOrEqual(0);
    // The folder's files and the data dir are where the bench put them.
    expect(fs.readdirSync(path.join(work, 'agent-folder'))).toHaveLength(2);
  }, 120_000);
});
