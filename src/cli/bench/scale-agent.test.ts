import { describe, expect, it } from 'vitest';
import { fixtureModels, openTestCore, tempDir } from '../../core/test-support.js';
import { agentPhase } from './scale-agent.js';

describe('agentPhase: an agent’s single writes while searches go on (bench --only scale --agent-seconds)', () => {
  it('writes while it searches, lets upkeep run, and leaves the KB as it found it', async () => {
    const dataDir = tempDir();
    const { model } = await fixtureModels();
    const queries = Array.from({ length: 30 }, (_, i) => `customs duties ${i}, таможенные платежи, 退货 ${i}`);
    const core = await openTestCore({ dataDir });
    await core.client.createKb({ kb_id: 'scale', embedding_model: model });
    const documents = Array.from({ length: 8 }, (_, d) => ({ doc_id: `d${d}`, content: queries.slice(d, d + 5).join('\n\n') }));
    await core.client.addDocumentsBatch({ kb_id: 'scale', documents });
    const before = (await core.client.stats({})).kbs.find((k) => k.kb_id === 'scale')!;
    await core.close();

    const report = await agentPhase({ dataDir, kb: 'scale', queries, seconds: 4, writeEveryMs: 1_000, settledSearches: 10 });
    expect(report.writes).toBeGreaterThanOrEqual(2);
    expect(report.searches).toBeGreaterThan(0);
    expect(report.upkeep_runs).toBeGreaterThanOrEqual(1);
    expect(report.upkeep_ms).toHaveLength(report.upkeep_runs);
    report.upkeep_locked_ms.forEach((locked, i) => expect(locked).toBeLessThanOrEqual(report.upkeep_ms[i]!));
    expect(report.peak_rss_mb).toBeGreaterThanOrEqual(report.rss_settled_mb);
    expect(report.write_max_ms).toBeGreaterThanOrEqual(report.write_p50_ms);

    const after = await openTestCore({ dataDir });
    try {
      const kb = (await after.client.stats({})).kbs.find((k) => k.kb_id === 'scale')!;
      expect({ documents: kb.documents, chunks: kb.chunks }).toEqual({ documents: before.documents, chunks: before.chunks });
    } finally {
      await after.close();
    }
  }, 120_000);
});
