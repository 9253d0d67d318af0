import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { buildFixtureModel, buildFixtureReranker } from '../embed/fixture-model.js';
import { errorCode, openTestCore, tempDir } from '../test-support.js';

/**
 * Offline first start with a model folder: importModel checks the folder, copies it into the data dir and loads it
 * from there with downloads off; KBs use it from then on, across restarts, with the source folder gone.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const POTION = process.env.RAGDESK_POTION_DIR ?? path.resolve(repoRoot, '../shared/models/potion-base-4M-int8');
const potionPresent = fs.existsSync(path.join(POTION, 'onnx', 'model.onnx'));

let dir: string;
let dataDir: string;
let core: Core;

beforeAll(async () => {
  dir = tempDir('ragdesk-model-import-');
  dataDir = path.join(dir, 'data');
  core = await openTestCore({ dataDir, allowDownload: false });
});

afterAll(async () => {
  await core?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function vectorSearch(c: Core, kb: string, query: string) {
  return c.client.search({ query, kb_ids: [kb], mode: 'vector', top_k: 3 });
}

describe('importing a model folder for offline use', () => {
  it('checks, copies and loads a folder as local/<name>; KBs use it from then on, after a restart, without the source', async () => {
    const src = (await buildFixtureModel(path.join(dir, 'src', 'fixture-embed'))).dir;
    const imported = await core.client.importModel({ path: src });
    expect(imported).toMatchObject({
      model: 'local/fixture-embed',
      kind: 'embedding',
      preset: null,
      dir: path.join(dataDir, 'models', 'local', 'fixture-embed'),
      dim: 64,
      dtype: 'fp32',
      files: 4,
      replaced: false,
    });
    const status = (await core.client.modelStatus({})).find((s) => s.model === 'local/fixture-embed');
    expect(status).toMatchObject({ state: 'loaded', dim: 64, imported_at: imported.imported_at });

    await core.client.createKb({ kb_id: 'notes', embedding_model: imported.model });
    await core.client.addDocument({ kb_id: 'notes', doc_id: 'tea', content: 'green tea and black tea from the harbor market' });
    await core.client.addDocument({ kb_id: 'notes', doc_id: 'law', content: 'customs law and import duties' });
    expect((await vectorSearch(core, 'notes', 'tea market')).hits[0]).toMatchObject({ doc_id: 'tea' });

    // A new process (a new worker), downloads off, the folder it came from gone: it loads from the data dir.
    await core.close();
    fs.rmSync(src, { recursive: true });
    core = await openTestCore({ dataDir, allowDownload: false });
    const res = await vectorSearch(core, 'notes', 'customs duties');
    expect(res.mode).toBe('vector');
    expect(res.hits[0]).toMatchObject({ doc_id: 'law' });
    expect((await core.client.modelStatus({})).find((s) => s.model === 'local/fixture-embed')).toMatchObject({
      state: 'loaded',
      imported_at: imported.imported_at,
    });
  });

  it('serves a preset when the folder is that preset’s model, so KBs on the preset work offline as they are', async () => {
    await core.client.createKb({ kb_id: 'on-english', embedding_model: 'english' });
    // Without network the preset is missing (downloads off)...
    expect(await errorCode(core.client.loadModel({ model: 'english', allow_download: false }))).toBe('model_unavailable');
    expect((await core.client.modelStatus({})).find((s) => s.model === 'english')).toMatchObject({ state: 'missing' });
    // A folder named like the preset's model, with the 8-bit weights presets load.
    const src = (await buildFixtureModel(path.join(dir, 'src', 'all-MiniLM-L6-v2'))).dir;
    fs.renameSync(path.join(src, 'onnx', 'model.onnx'), path.join(src, 'onnx', 'model_quantized.onnx'));
    const imported = await core.client.importModel({ path: src });
    expect(imported).toMatchObject({
      model: 'english',
      preset: 'english',
      dir: path.join(dataDir, 'models', 'Xenova', 'all-MiniLM-L6-v2'),
    });
    expect(imported.dtype).toBe('q8');
    await core.client.addDocument({ kb_id: 'on-english', doc_id: 'tea', content: 'green tea and black tea from the harbor market' });
    const res = await vectorSearch(core, 'on-english', 'tea');
    expect(res.hits[0]).toMatchObject({ doc_id: 'tea' });
    expect((await core.client.modelStatus({})).find((s) => s.model === 'english')).toMatchObject({
      state: 'loaded',
      imported_at: imported.imported_at,
    });
  });

  it('imports a reranker, and refuses to import over an import unless asked', async () => {
    const src = (await buildFixtureReranker(path.join(dir, 'src', 'tiny-rerank'))).dir;
    const imported = await core.client.importModel({ path: src, kind: 'rerank', as: 'tiny-rerank' });
    expect(imported).toMatchObject({ model: 'local/tiny-rerank', kind: 'rerank', dim: null });
    expect(await errorCode(core.client.importModel({ path: src, kind: 'rerank', as: 'tiny-rerank' }))).toBe('invalid_parameter');
    expect(await core.client.importModel({ path: src, kind: 'rerank', as: 'tiny-rerank', replace: true })).toMatchObject({
      replaced: true,
    });
  });

  it('leaves nothing behind when the folder does not load as its config says', async () => {
    const src = (await buildFixtureModel(path.join(dir, 'src', 'liar'))).dir;
    const config = JSON.parse(fs.readFileSync(path.join(src, 'config.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(src, 'config.json'), JSON.stringify({ ...config, hidden_size: 32 }));
    await expect(core.client.importModel({ path: src })).rejects.toMatchObject({
      code: 'invalid_parameter',
      message: expect.stringMatching(/does not load as a embedding model: it embeds 64-d vectors, but its config\.json says 32/),
    });
    expect(fs.existsSync(path.join(dataDir, 'models', 'local', 'liar'))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'models', 'local')).filter((f) => f.includes('importing') || f.includes('replaced'))).toEqual(
      [],
    );
    expect(await errorCode(core.client.importModel({ path: path.join(dir, 'src', 'missing') }))).toBe('invalid_parameter');
  });
});

describe('a real trained model folder (optional)', () => {
  const title = potionPresent
    ? 'imports potion-base-4M-int8 (copied from ../shared/models): 128-d, and it ranks by meaning offline'
    : `skipped: no trained model at ${POTION} (set RAGDESK_POTION_DIR to run this test)`;
  it.skipIf(!potionPresent)(title, async () => {
    const src = path.join(dir, 'src', 'potion-base-4M-int8');
    fs.cpSync(POTION, src, { recursive: true });
    const imported = await core.client.importModel({ path: src });
    expect(imported).toMatchObject({ model: 'local/potion-base-4M-int8', dim: 128, dtype: 'fp32' });
    await core.client.createKb({ kb_id: 'medical', embedding_model: imported.model });
    await core.client.addDocument({ kb_id: 'medical', doc_id: 'heart', content: 'cardiovascular illness and its treatment' });
    await core.client.addDocument({ kb_id: 'medical', doc_id: 'tax', content: 'tax law for small companies' });
    expect((await vectorSearch(core, 'medical', 'heart disease')).hits[0]).toMatchObject({ doc_id: 'heart' });
  });
});
