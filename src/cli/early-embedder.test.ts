import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discardEarlyWorker, earlyWorkerState } from '../core/embed/worker-client.js';
import { fixtureModels, openTestCore } from '../core/test-support.js';
import { startEmbedderEarly } from './early-embedder.js';
import { withClient } from './open-core.js';

let dataDir: string;

beforeAll(async () => {
  const { model } = await fixtureModels();
  const core = await openTestCore();
  dataDir = core.dataDir;
  await core.client.createKb({ kb_id: 'vec', embedding_model: model });
  await core.client.createKb({ kb_id: 'text', embedding_model: 'none' });
  await core.client.createKb({ kb_id: 'gone', embedding_model: path.join(path.dirname(model), 'not-there') });
  await core.close();
}, 120_000);

afterAll(async () => {
  await discardEarlyWorker();
});

describe('startEmbedderEarly', () => {
  it('starts the worker only for KBs with a local model on disk', async () => {
    for (const kbs of [['text'], ['gone'], ['nope'], []]) {
      expect(startEmbedderEarly(dataDir, kbs), kbs.join()).toBe(false);
      expect(earlyWorkerState().waiting).toBe(false);
    }
    expect(startEmbedderEarly(dataDir, ['text', 'vec'])).toBe(true);
    await discardEarlyWorker();
    expect(startEmbedderEarly(dataDir, 'all')).toBe(true);
    await discardEarlyWorker();
  });

  it('starts nothing when the KB registry cannot be read', async () => {
    const broken = fs.mkdtempSync(path.join(path.dirname(dataDir), 'ragdesk-broken-'));
    fs.writeFileSync(path.join(broken, 'kbs.json'), '{ not json');
    expect(startEmbedderEarly(broken, 'all')).toBe(false);
    expect(earlyWorkerState().waiting).toBe(false);
  });
});

describe('withClient with the KBs a command embeds for', () => {
  it('opens the engine here with the worker started first, and the engine adopts it', async () => {
    const before = earlyWorkerState().adopted;
    const hits = await withClient(
      { dataDir },
      async ({ client, via }) => {
        expect(via).toBe('local');
        await client.addDocument({ kb_id: 'vec', doc_id: 'n', content: 'Harbor fees are due on arrival.' });
        return (await client.search({ kb_ids: ['vec'], query: 'harbor fees', mode: 'vector', top_k: 3 })).hits.length;
      },
      ['vec'],
    );
    expect(hits).toBe(1);
    expect(earlyWorkerState()).toEqual({ adopted: before + 1, waiting: false });
    // Without the KBs, nothing is started before the engine.
    await withClient({ dataDir }, async ({ client }) => client.listKbs({}));
    expect(earlyWorkerState()).toEqual({ adopted: before + 1, waiting: false });
  });
});
