import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../core.js';
import { fixtureModels, tempDir } from '../test-support.js';
import { warmUpSearch } from './warm-up.js';

/**
 * The search warm-up on a real engine reopened over a data dir, as a server finds it at start: nothing loaded.
 * Servers answer hybrid from full-text while a model loads (waitForModels false), so a hybrid search that runs
 * before the model is ready says so; after the warm-up it must not.
 */

const open: Core[] = [];
afterAll(async () => {
  for (const core of open.reverse()) await core.close();
});

async function reopened(build: (core: Core) => Promise<void>): Promise<Core> {
  const dataDir = tempDir('ragdesk-warm-');
  const first = await Core.open({ dataDir, allowDownload: false });
  await build(first);
  await first.close();
  const core = await Core.open({ dataDir, allowDownload: false, waitForModels: false });
  open.push(core);
  return core;
}

describe('warmUpSearch', () => {
  it('loads each KB’s model and opens its table once: callers share one warm-up, and the first hybrid search is not degraded', async () => {
    const { model } = await fixtureModels();
    const core = await reopened(async (c) => {
      for (const kb_id of ['one', 'two']) {
        await c.client.createKb({ kb_id, embedding_model: model });
        await c.client.addDocument({ kb_id, doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
      }
    });
    expect(core.ctx.models.peekEmbedder(model)).toBeUndefined();
    const warming = warmUpSearch(core.ctx);
    // A search that arrives meanwhile waits on the same promise instead of starting a warm-up of its own.
    expect(warmUpSearch(core.ctx)).toBe(warming);
    await warming;
    expect(core.ctx.models.peekEmbedder(model)).toBeDefined();
    for (const kb_id of ['one', 'two']) {
      const res = await core.client.search({ kb_ids: [kb_id], query: 'customs duties port', mode: 'hybrid', top_k: 1 });
      expect(res.degraded).toBeUndefined();
      expect(res.hits[0]?.doc_id).toBe('port');
    }
  }, 60_000);

  it('resolves when a KB’s model cannot load: that KB’s searches say so themselves, full-text is ready', async () => {
    const core = await reopened(async (c) => {
      await c.client.createKb({ kb_id: 'offline', embedding_model: '/nonexistent/model-folder' });
      await c.client.addDocument({ kb_id: 'offline', doc_id: 'port', content: 'Customs duties are paid on imported goods at the port.' });
    });
    await expect(warmUpSearch(core.ctx)).resolves.toBeUndefined();
    const res = await core.client.search({ kb_ids: ['offline'], query: 'customs duties', mode: 'hybrid', top_k: 1 });
    expect(res.hits[0]?.doc_id).toBe('port');
    expect(res.degraded).toMatch(/full-text only/);
  }, 60_000);
});
