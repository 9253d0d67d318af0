import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths } from '../config/data-dir.js';
import { Core } from '../core.js';
import { fixtureModels, tempDir } from '../test-support.js';
import { Store } from './store.js';

describe('crash safety', () => {
  it('a write that died before its document row leaves nothing visible after reopening', async () => {
    const { model } = await fixtureModels();
    const dataDir = tempDir();
    const core = await Core.open({ dataDir, allowDownload: false });
    await core.client.createKb({ kb_id: 'k', embedding_model: model });
    await core.client.addDocument({ kb_id: 'k', doc_id: 'kept', content: 'A complete document about harbours.' });
    const table = (await core.ctx.store.chunks('k'))!;
    // Simulate the crash: the marker is down and chunks of a new document are written, but its row never is.
    fs.writeFileSync(path.join(dataPaths(dataDir).lance, '.writing-k'), '999999');
    const base = {
      version: 'v-crash',
      title: 'Half',
      source: '',
      parser: 'text',
      page: null,
      heading_path: null,
      line_start: null,
      line_end: null,
      char_start: 0,
      char_end: 10,
      tokens: 3,
      metadata: '{}',
      created_at: '2026-01-01',
      updated_at: '2026-01-01',
      meta: {},
      vector: null,
    };
    await table.add(
      [0, 1].map((i) => ({
        ...base,
        chunk_id: `half#${i}`,
        doc_id: 'half',
        chunk_index: i,
        text: `harbours half ${i}`,
        fts: 'harbour half',
      })),
    );
    // ...and a new version of the kept document was half-written too.
    await table.add([{ ...base, chunk_id: 'kept#v2#0', doc_id: 'kept', version: 'v2', chunk_index: 0, text: 'new text', fts: 'new' }]);
    await core.close();

    const store = await Store.open(dataPaths(dataDir).lance, dataPaths(dataDir).kbs);
    const reopened = (await store.chunks('k'))!;
    expect(await reopened.count("doc_id = 'half'")).toBe(0);
    expect(await reopened.count("doc_id = 'kept'")).toBe(1);
    expect(fs.existsSync(path.join(dataPaths(dataDir).lance, '.writing-k'))).toBe(false);
    store.close();
  });
});

describe('a chunk table being created', () => {
  it('is absent or whole to a reader meanwhile, never an error, and one object once made', async () => {
    const dataDir = tempDir();
    const store = await Store.open(dataPaths(dataDir).lance, dataPaths(dataDir).kbs);
    try {
      for (let round = 0; round < 5; round++) {
        const name = `chunks__race${round}`;
        let stop = false;
        const seen: Array<unknown> = [];
        // Readers poll the table from before the create starts until after it ends, as searches do.
        const readers = Array.from({ length: 4 }, async () => {
          while (!stop) {
            seen.push(await store.openTable(name).catch((err: unknown) => err));
            await new Promise((r) => setImmediate(r));
          }
        });
        const created = await store.createTable(name, 8);
        stop = true;
        await Promise.all(readers);
        const errors = seen.filter((s) => s instanceof Error);
        expect(errors.map(String)).toEqual([]);
        expect(seen.every((s) => s === undefined || s === created)).toBe(true);
        expect(await store.openTable(name)).toBe(created);
      }
    } finally {
      store.close();
    }
  });
});
