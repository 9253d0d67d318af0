import { describe, expect, it } from 'vitest';
import { memoryClient, runTool } from '../memory-contract.js';
import { kbStats } from './kb-stats.js';

describe('kb_stats', () => {
  it("joins the contract's stats, model states and sources per readable KB", async () => {
    const { client, state } = memoryClient({ alpha: [{ doc_id: 'a', content: 'x' }], beta: [] }, { readable: ['alpha'] });
    const out = await runTool(kbStats, {}, client);
    expect(out.kbs).toHaveLength(1);
    expect(out.kbs[0]).toMatchObject({ kb_id: 'alpha', documents: 1, model_state: 'loaded', sources: [], model_change: null });
    expect(state.calls.map(([m]) => m).sort()).toEqual(['listSources', 'modelStatus', 'stats']);
  });
});
