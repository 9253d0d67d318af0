import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import type { Embedder, ModelManager } from '../../core/embed/types.js';
import { RagError } from '../../shared/errors.js';
import { prepareFile } from '../../core/services/document-service.js';
import { commitDocuments } from '../../core/services/ingest.js';
import { flushIndexing, maintainIndexes } from '../../core/services/indexing.js';
import { round, rssMb } from './stats.js';

/**
 * Ingest throughput excluding embedding: parse → chunk (with a real WordPiece tokenizer) → analyse → write to
 * LanceDB → FTS index. The model manager is the real one, except that it reports no embedding model, exactly
 * as when a KB's model is not downloaded: chunks are written without vectors.
 */
function withoutEmbedding(models: ModelManager): ModelManager {
  return {
    presets: () => models.presets(),
    status: () => models.status(),
    getEmbedder: async (): Promise<Embedder> => {
      throw new RagError('model_unavailable', 'benchmark excludes embedding');
    },
    peekEmbedder: () => undefined,
    getReranker: (m, o) => models.getReranker(m, o),
    peekReranker: (m) => models.peekReranker(m),
    getTokenCounter: (m) => models.getTokenCounter(m),
    onProgress: (l) => models.onProgress(l),
    dispose: () => models.dispose(),
  };
}

/** Text/markdown/html corpora big enough to time: the sample KB's documents, varied so no two are identical. */
function variedCopies(text: string, copies: number): string[] {
  const words = text.split(/(\s+)/);
  return Array.from(
    { length: copies },
    (_, i) => words.map((w, j) => (j % 97 === i % 97 && w.trim() ? `${w}${i}` : w)).join('') + `\n\nrevision ${i}\n`,
  );
}

interface FormatResult {
  format: string;
  files: number;
  mb: number;
  chunks: number;
  seconds: number;
  mb_per_s: number;
  chunks_per_s: number;
}

export async function benchIngest(root: string, workDir: string): Promise<{ formats: FormatResult[]; rss_mb: number }> {
  const model = await buildFixtureModel(path.join(workDir, 'fixture-model'));
  const dataDir = path.join(workDir, 'ingest-data');
  const core = await Core.open({ dataDir, allowDownload: false });
  const models = withoutEmbedding(core.ctx.models);
  const ctx = { ...core.ctx, models };
  const sample = path.join(root, 'rag_data');
  const fixtures = path.join(root, 'src/core/parse/__fixtures__');
  const source = (name: string) => fs.readFileSync(path.join(sample, name));
  const inputs: Array<{ format: string; files: () => Array<{ name: string; data: Uint8Array }> }> = [
    {
      format: 'txt',
      files: () =>
        variedCopies(source('en-shipping-incoterms.txt').toString('utf8').repeat(8), 400).map((t, i) => ({
          name: `doc-${i}.txt`,
          data: Buffer.from(t),
        })),
    },
    {
      format: 'md',
      files: () =>
        variedCopies(source('en-customs-clearance.md').toString('utf8').repeat(6), 400).map((t, i) => ({
          name: `doc-${i}.md`,
          data: Buffer.from(t),
        })),
    },
    {
      format: 'html',
      files: () =>
        variedCopies(source('en-returns-policy.html').toString('utf8').repeat(4), 300).map((t, i) => ({
          name: `doc-${i}.html`,
          data: Buffer.from(t),
        })),
    },
    {
      format: 'pdf',
      files: () =>
        Array.from({ length: 40 }, (_, i) => ({
          name: `doc-${i}.pdf`,
          data: fs.readFileSync(path.join(i % 2 ? sample : fixtures, i % 2 ? 'en-product-safety.pdf' : 'sample.pdf')),
        })),
    },
    {
      format: 'docx',
      files: () =>
        Array.from({ length: 40 }, (_, i) => ({
          name: `doc-${i}.docx`,
          data: fs.readFileSync(path.join(i % 2 ? sample : fixtures, i % 2 ? 'en-warehouse-operations.docx' : 'headings.docx')),
        })),
    },
  ];
  const formats: FormatResult[] = [];
  const ingest = async (kbId: string, files: Array<{ name: string; data: Uint8Array }>) => {
    let chunks = 0;
    for (let i = 0; i < files.length; i += 256) {
      const group = [];
      for (const f of files.slice(i, i + 256)) {
        const doc = await prepareFile(ctx, kbId, { data: f.data, filename: f.name }, false);
        // Binary formats repeat: make each copy's text unique so none is skipped as a duplicate.
        doc.hash = `${doc.hash}-${f.name}`;
        chunks += doc.chunks.length;
        group.push(doc);
      }
      await commitDocuments(ctx, kbId, group);
    }
    await maintainIndexes(ctx, kbId, true);
    return chunks;
  };
  try {
    for (const input of inputs) {
      const files = input.files();
      // Warm-up on a throw-away KB (JIT, lazily loaded parsers, caches): the figure is steady-state throughput.
      await core.client.createKb({ kb_id: `warm-${input.format}`, embedding_model: model.dir });
      await ingest(`warm-${input.format}`, files.slice(0, Math.max(4, Math.floor(files.length / 4))));
      const kbId = `bench-${input.format}`;
      await core.client.createKb({ kb_id: kbId, embedding_model: model.dir });
      const bytes = files.reduce((a, f) => a + f.data.byteLength, 0);
      const start = performance.now();
      const chunks = await ingest(kbId, files);
      const seconds = (performance.now() - start) / 1000;
      formats.push({
        format: input.format,
        files: files.length,
        mb: round(bytes / 1e6),
        chunks,
        seconds: round(seconds),
        mb_per_s: round(bytes / 1e6 / seconds),
        chunks_per_s: round(chunks / seconds, 0),
      });
    }
  } finally {
    // The bench's context wraps the core's, so its scheduled index upkeep is flushed here, before closing.
    await flushIndexing(ctx);
    await core.close();
  }
  return { formats, rss_mb: rssMb() };
}
