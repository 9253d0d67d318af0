import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Core } from '../../core/core.js';
import { plainChunkRow } from '../../core/store/chunk-rows.js';
import type { ChunkRow } from '../../core/store/chunk-table.js';
import { percentile, round } from './stats.js';

/**
 * ANN quality on real embeddings: SciFact split into sentences, embedded with the small trained model in
 * ../shared/models (when present), indexed with the same ANN index the product builds; recall@10 of the ANN
 * search against exact search for the SciFact test queries. Random vectors would make ANN look worse and prove
 * nothing, so without the model and dataset this part is skipped and says so.
 */
export async function benchAnnRecall(root: string, workDir: string): Promise<Record<string, unknown>> {
  const shared = process.env.RAGDESK_SHARED ?? path.resolve(root, '..', 'shared');
  const modelDir = path.join(shared, 'models', 'potion-base-4M-int8');
  const ds = path.join(shared, 'datasets', 'scifact');
  if (!fs.existsSync(modelDir) || !fs.existsSync(ds)) return { skipped: `needs ${modelDir} and ${ds}` };
  const corpus = gunzipSync(fs.readFileSync(path.join(ds, 'corpus.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
  const sentences: Array<{ doc: string; text: string }> = [];
  for (const d of corpus)
    for (const s of `${d.title}. ${d.text}`.split(/(?<=[.!?])\s+/))
      if (s.trim().length > 20) sentences.push({ doc: d._id, text: s.trim() });
  const qrelIds = new Set(
    fs
      .readFileSync(path.join(ds, 'qrels', 'test.tsv'), 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[0]),
  );
  const queries = fs
    .readFileSync(path.join(ds, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrelIds.has(q._id));

  const core = await Core.open({ dataDir: path.join(workDir, 'ann-data'), allowDownload: false });
  try {
    const embedder = await core.ctx.models.getEmbedder(modelDir, { allowDownload: false });
    await core.client.createKb({ kb_id: 'ann', embedding_model: modelDir });
    const table = await core.ctx.store.createChunks(core.ctx.store.registry.get('ann'), embedder.dim);
    const embedStart = performance.now();
    const now = new Date().toISOString();
    for (let i = 0; i < sentences.length; i += 4096) {
      const batch = sentences.slice(i, i + 4096);
      const vectors = await embedder.embedPassages(batch.map((s) => s.text));
      const rows: ChunkRow[] = batch.map((s, j) =>
        plainChunkRow({ chunk_id: `s${i + j}`, doc_id: s.doc, chunk_index: i + j, text: s.text, fts: '', vector: vectors[j]! }, now),
      );
      await table.add(rows);
    }
    const embedSeconds = (performance.now() - embedStart) / 1000;
    const buildStart = performance.now();
    await table.buildVectorIndex(sentences.length);
    const buildSeconds = (performance.now() - buildStart) / 1000;
    const qv = await embedder.embedQueries(queries.map((q) => q.text));
    let recall = 0;
    const annMs: number[] = [];
    const exactMs: number[] = [];
    for (const v of qv) {
      let t = performance.now();
      const ann = await table.vectorRank(v, 10);
      annMs.push(performance.now() - t);
      t = performance.now();
      const exact = await table.vectorRank(v, 10, undefined, { exact: true });
      exactMs.push(performance.now() - t);
      const truth = new Set(exact.map((c) => `${c.doc_id}#${c.chunk_index}`));
      recall += ann.filter((c) => truth.has(`${c.doc_id}#${c.chunk_index}`)).length / Math.max(1, truth.size);
    }
    return {
      model: 'potion-base-4M-int8',
      vectors: sentences.length,
      dim: embedder.dim,
      queries: qv.length,
      recall_at_10: round(recall / qv.length, 4),
      ann_p50_ms: round(percentile(annMs, 50)),
      exact_p50_ms: round(percentile(exactMs, 50)),
      index_build_s: round(buildSeconds),
      embed_and_write_s: round(embedSeconds),
    };
  } finally {
    await core.close();
  }
}
