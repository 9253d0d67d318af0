import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkDocumentWithWarnings } from '../chunk/index.js';
import { parseText } from '../services/document-service.js';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../test-support.js';
import { buildFixtureModel, type FixtureModelInfo } from './fixture-model.js';
import { createModelManager, type WorkerModelManager } from './model-manager.js';
import { DROPPED_OR_CONTROL } from './tokenizer-fast-paths.js';
import { joinPassageIds, passageIds, passageText, type PassageIds } from './passage.js';

// The chunker's token ids handed to the embedding worker (token-index.ts, passage.ts): the real worker, the
// fixture model (a BERT tokenizer) and the sample KB's documents in three languages.
const SAMPLE_KB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'rag_data');
let root: string;
let fixture: FixtureModelInfo;
let manager: WorkerModelManager;

beforeAll(async () => {
  root = tempDir('ragdesk-passage-ids-');
  fixture = await buildFixtureModel(path.join(root, 'models', 'fixture'), { dim: 32 });
  manager = createModelManager({ dataDir: path.join(root, 'data'), allowDownload: false, batchSize: 8 });
});

afterAll(async () => {
  await manager?.dispose();
});

async function samplePassages(): Promise<{ texts: string[]; ids: PassageIds | undefined }> {
  const tokenizer = await manager.getTokenCounter(fixture.dir);
  expect(tokenizer.index).toBeDefined();
  const docs: Array<{ texts: string[]; ids: PassageIds | undefined; count: number }> = [];
  for (const name of fs
    .readdirSync(SAMPLE_KB)
    .filter((f) => /\.(md|txt)$/.test(f))
    .sort()) {
    const parsed = await parseText(fs.readFileSync(path.join(SAMPLE_KB, name), 'utf8'), name.endsWith('.md') ? 'markdown' : 'text');
    const { chunks } = await chunkDocumentWithWarnings(parsed, { strategy: 'markdown', chunk_size: 64, chunk_overlap: 8 }, { tokenizer });
    const title = `${name} — «заголовок» 标题`;
    docs.push({ texts: chunks.map((c) => passageText(title, c.text)), ids: passageIds(tokenizer, title, chunks), count: chunks.length });
  }
  return { texts: docs.flatMap((d) => d.texts), ids: joinPassageIds(docs) };
}

describe('passage ids', () => {
  it('give the vectors of embedding the texts, and the worker reads them instead of the texts', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const { texts, ids } = await samplePassages();
    expect(texts.length).toBeGreaterThan(40);
    expect(ids?.tokenizer).toBe(embedder.resolved);
    // Every passage has ids but those holding what the tokenizer must see whole (a character its normalizer drops:
    // here U+FFFD, of the sample KB's cp1251 text read as UTF-8).
    const without = texts.filter((_, i) => !ids!.parts[i]);
    for (const t of without) expect(DROPPED_OR_CONTROL.test(t), t.slice(0, 80)).toBe(true);
    expect(without.length).toBeLessThan(texts.length / 10);
    const fromTexts = await embedder.embedPassages(texts);
    const fromIds = await embedder.embedPassages(texts, ids);
    expect(fromIds.map((v) => Array.from(v))).toEqual(fromTexts.map((v) => Array.from(v)));
    // Texts that say something else: the vectors still follow the ids, so the ids were what the worker read.
    const other = texts.map((_, i) => `unrelated text ${i}`);
    const fromOther = await embedder.embedPassages(other, ids);
    const otherAlone = await embedder.embedPassages(other);
    fromOther.forEach((v, i) => expect(Array.from(v), `passage ${i}`).toEqual(Array.from((ids!.parts[i] ? fromTexts : otherAlone)[i]!)));
  });

  it('are not used where they name another tokenizer, and passages without ids are tokenized', async () => {
    const embedder = await manager.getEmbedder(fixture.dir);
    const { texts, ids } = await samplePassages();
    const other = texts.map((_, i) => `unrelated text ${i}`);
    const expected = await embedder.embedPassages(other);
    const foreign = await embedder.embedPassages(other, { tokenizer: 'another-model', parts: ids!.parts });
    expect(foreign.map((v) => Array.from(v))).toEqual(expected.map((v) => Array.from(v)));
    // Every other passage without ids: those follow their texts, the rest their ids.
    const mixed = await embedder.embedPassages(other, {
      tokenizer: ids!.tokenizer,
      parts: ids!.parts.map((p, i) => (i % 2 ? undefined : p)),
    });
    const fromTexts = await embedder.embedPassages(texts);
    mixed.forEach((v, i) => expect(Array.from(v), `passage ${i}`).toEqual(Array.from(i % 2 ? expected[i]! : fromTexts[i]!)));
  });
});
