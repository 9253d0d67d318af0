import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import { resolveModelSpec } from '../src/core/embed/model-spec.js';
import type { EmbedResult, LoadResult, RerankResult } from '../src/core/embed/protocol.js';
import { EmbedWorkerClient } from '../src/core/embed/worker-client.js';
import { INLINE_MAX_CHUNKS } from '../src/core/services/analysis-pool.js';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk, ROOT } from './cli-support.js';

let dataDir: string;
let model: string;
const cli = (...args: string[]) => ragdesk(['--data-dir', dataDir, ...args]);

beforeAll(async () => {
  ({ model } = await fixtureModels());
  dataDir = tempDir('ragdesk-cli-');
}, 120_000);

describe('ragdesk CLI end to end', () => {
  let files: string;

  beforeAll(async () => {
    // The sample KB plus one broken file: a folder with one bad file.
    files = tempDir('ragdesk-cli-files-');
    fs.cpSync(path.join(ROOT, 'rag_data'), files, { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'src/core/parse/__fixtures__/corrupt.pdf'), path.join(files, 'broken-report.pdf'));
    const created = await cli('kb', 'create', 'sample', '--model', model, '--languages', 'en,ru,zh', '--json');
    expect(created.code).toBe(0);
  }, 120_000);

  it('ingests a mixed folder: all good files indexed, the bad one reported, exit code 3', async () => {
    const r = await cli('add', files, '--kb', 'sample', '--json');
    expect(r.code).toBe(3);
    const out = json<{
      files: number;
      added: number;
      failed: number;
      results: Array<{ file: string; ok: boolean; error?: { code: string; message: string } }>;
    }>(r);
    expect(out.failed).toBe(1);
    expect(out.added).toBe(out.files - 1);
    const bad = out.results.find((x) => !x.ok)!;
    expect(bad.file).toMatch(/broken-report\.pdf$/);
    expect(bad.error).toMatchObject({ code: 'parse_failed' });
    expect(bad.error!.message).toMatch(/broken-report\.pdf/);
  });

  it('re-adding the same folder skips unchanged files', async () => {
    const r = await cli('add', files, '--kb', 'sample', '--json', '--exclude', '**/*.pdf');
    const out = json<{ skipped: number; added: number }>(r);
    expect(out.added).toBe(0);
    expect(out.skipped).toBeGreaterThan(5);
  });

  it('puts the right document first for Russian, Chinese and English queries (fts)', async () => {
    const top = async (q: string) =>
      json<{ mode: string; reranked: boolean; hits: Array<{ doc_id: string }> }>(
        await cli('search', q, '--kb', 'sample', '--mode', 'fts', '--json'),
      );
    const ru = await top('таможенной пошлины');
    expect(ru).toMatchObject({ mode: 'fts', reranked: false });
    expect(ru.hits[0]!.doc_id).toMatch(/^ru-tamozhenn/);
    expect((await top('退货')).hits[0]!.doc_id).toMatch(/^zh-tuihuo/);
    expect((await top('Incoterms FOB')).hits[0]!.doc_id).toMatch(/^en-shipping/);
  });

  it('runs vector and hybrid through the model loading path', async () => {
    for (const mode of ['vector', 'hybrid']) {
      const r = await cli('search', 'customs clearance', '--kb', 'sample', '--mode', mode, '--top-k', '3', '--json');
      expect(r.code).toBe(0);
      const out = json<{ mode: string; degraded?: string; hits: Array<{ kb_id: string; location: object; score: number }> }>(r);
      expect(out.mode).toBe(mode);
      expect(out.degraded).toBeUndefined();
      expect(out.hits).toHaveLength(3);
      expect(out.hits[0]!.kb_id).toBe('sample');
    }
  });

  it('filters, and answers bad filters with invalid_parameter (exit 2)', async () => {
    const ok = json<{ hits: Array<{ doc_id: string }> }>(
      await cli('search', 'таможня customs 海关', '--all', '--mode', 'fts', '--filter', 'parser=docx', '--top-k', '10', '--json'),
    );
    expect(ok.hits.length).toBeGreaterThan(0);
    expect(ok.hits.every((h) => h.doc_id.endsWith('.docx'))).toBe(true);
    const bad = await cli('search', 'x', '--kb', 'sample', '--filter', 'nope=1', '--json');
    expect(bad.code).toBe(2);
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('invalid_parameter');
    const inj = json<{ hits: unknown[] }>(
      await cli('search', 'customs', '--kb', 'sample', '--mode', 'fts', '--filter', "source=x' OR 1=1 --", '--json'),
    );
    expect(inj.hits).toEqual([]);
  });

  it('lists, shows, chunks and removes documents', async () => {
    const list = json<{ total: number; documents: Array<{ doc_id: string }> }>(
      await cli('docs', 'list', '--kb', 'sample', '--limit', '3', '--json'),
    );
    expect(list.documents).toHaveLength(3);
    const id = 'en-product-safety.pdf';
    const doc = json<{ content: string; parser: string }>(await cli('docs', 'show', id, '--kb', 'sample', '--json'));
    expect(doc.parser).toBe('pdf');
    const chunks = json<{ chunks: Array<{ location: { page?: number } }> }>(await cli('chunks', id, '--kb', 'sample', '--json'));
    expect(chunks.chunks[0]!.location.page).toBe(1);
    expect((await cli('docs', 'rm', id, '--kb', 'sample')).code).toBe(0);
    const gone = await cli('docs', 'show', id, '--kb', 'sample', '--json');
    expect(gone.code).toBe(1);
    expect(json<{ error: { code: string } }>(gone).error.code).toBe('document_not_found');
  });

  it('previews without writing', async () => {
    const r = await cli(
      'preview',
      path.join(ROOT, 'rag_data/en-customs-clearance.md'),
      '--strategy',
      'sentence',
      '--chunk-size',
      '64',
      '--json',
    );
    const out = json<{ parser: string; chunks: Array<{ tokens: number; characters: number }> }>(r);
    expect(out.parser).toBe('markdown');
    expect(out.chunks.length).toBeGreaterThan(2);
    expect(out.chunks.every((c) => c.tokens <= 64)).toBe(true);
  });

  it('shows and removes KBs; unknown KB is kb_not_found', async () => {
    const kbs = json<Array<{ kb_id: string; document_count: number }>>(await cli('kb', 'list', '--json'));
    expect(kbs[0]).toMatchObject({ kb_id: 'sample' });
    expect(kbs[0]!.document_count).toBeGreaterThan(5);
    const bad = await cli('kb', 'show', 'nope', '--json');
    expect(json<{ error: { code: string } }>(bad).error.code).toBe('kb_not_found');
    expect((await cli('kb', 'create', 'Bad Id')).code).toBe(2);
  });

  it('evaluates a BEIR dataset with the JSON shape scripts rely on', async () => {
    const ds = tempDir('ragdesk-beir-');
    fs.mkdirSync(path.join(ds, 'qrels'));
    const docs = [
      { _id: 'd1', title: 'Heart', text: 'Cardiovascular disease and heart patients.' },
      { _id: 'd2', title: 'Tax', text: 'Tax law for import duties at customs.' },
      { _id: 'd3', title: 'Cats', text: 'Cats and dogs are animals.' },
    ];
    fs.writeFileSync(path.join(ds, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
    fs.writeFileSync(
      path.join(ds, 'queries.jsonl'),
      [
        { _id: 'q1', text: 'heart disease' },
        { _id: 'q2', text: 'customs duties' },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n'),
    );
    fs.writeFileSync(path.join(ds, 'qrels/test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n');
    const r = await ragdesk(['eval', '--dataset', ds, '--model', model, '--mode', 'fts', '--json']);
    expect(r.code).toBe(0);
    const out = json(r);
    expect(Object.keys(out).slice(0, 6)).toEqual(['dataset', 'mode', 'queries', 'ndcg_at_10', 'recall_at_100', 'mrr_at_10']);
    expect(out).toMatchObject({ mode: 'fts', queries: 2, ndcg_at_10: 1, mrr_at_10: 1 });
    const all = json<Array<{ mode: string }>>(await ragdesk(['eval', '--dataset', ds, '--model', model, '--mode', 'all', '--json']));
    expect(all.map((x) => x.mode)).toEqual(['hybrid', 'fts', 'vector']);
  });

  it('evaluates a KB on its saved queries against another model, then changes the model with --wait', async () => {
    const other = (await buildFixtureModel(path.join(tempDir('ragdesk-cli-model-'), 'fixture-32'), { dim: 32, seed: 7 })).dir;
    const src = tempDir('ragdesk-cli-mc-');
    for (const f of ['en-shipping-incoterms.txt', 'ru-vozvrat-tovara.txt', 'en-customs-clearance.md'])
      fs.copyFileSync(path.join(ROOT, 'rag_data', f), path.join(src, f));
    expect((await cli('kb', 'create', 'mc', '--model', model)).code).toBe(0);
    expect((await cli('add', src, '--kb', 'mc', '--json')).code).toBe(0);
    const ids = json<{ documents: Array<{ doc_id: string }> }>(await cli('docs', 'list', '--kb', 'mc', '--json')).documents.map(
      (d) => d.doc_id,
    );
    const shipping = ids.find((id) => id.startsWith('en-shipping'))!;
    const queries = path.join(src, 'queries.jsonl');
    fs.writeFileSync(queries, `${JSON.stringify({ query: 'Incoterms FOB shipping', relevant: [shipping] })}\n# a comment\n`);
    const ev = await cli('eval', '--kb', 'mc', '--queries', queries, '--model', other, '--mode', 'fts', '--json');
    expect(ev.code).toBe(0);
    const groups =
      json<Array<{ model: string; index: string; reports: Array<{ dataset: string; queries: number; mrr_at_10: number }> }>>(ev);
    expect(groups.map((x) => [x.model, x.index])).toEqual([
      [model, 'current'],
      [other, 'copy'],
    ]);
    for (const x of groups) expect(x.reports[0]).toMatchObject({ dataset: 'kb:mc', queries: 1, mrr_at_10: 1 });

    const changed = await cli('kb', 'set-model', 'mc', other, '--wait', '--json');
    expect(changed.code).toBe(0);
    expect(json(changed)).toMatchObject({ kb_id: 'mc', state: 'done', from_model: model, to_model: other, to_dim: 32 });
    const shown = json<{ embedding_model: string; embedding_dim: number; stats: { migration: unknown } }>(
      await cli('kb', 'show', 'mc', '--json'),
    );
    expect(shown).toMatchObject({ embedding_model: other, embedding_dim: 32, stats: { migration: null } });
    const hit = json<{ hits: Array<{ doc_id: string }> }>(await cli('search', 'Incoterms FOB', '--kb', 'mc', '--mode', 'hybrid', '--json'));
    expect(hit.hits[0]!.doc_id).toBe(shipping);
    expect(json(await cli('kb', 'set-model', 'mc', '--cancel', '--json'))).toMatchObject({
      cancelled: false,
      migration: { state: 'done' },
    });
    // ~42 s in CI: two models' evaluations and a model change, each a process of its own.
  }, 180_000);

  it('refuses a data dir held by another live process that serves no port, naming it, after waiting for it', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    const lockFile = path.join(dataDir, 'ragdesk.lock');
    try {
      fs.writeFileSync(lockFile, JSON.stringify({ pid: holder.pid, port: null, token: 't', started_at: '', host: '127.0.0.1' }));
      const r = await ragdesk(['--data-dir', dataDir, 'kb', 'list', '--json'], { RAGDESK_OWNER_WAIT_MS: '1500' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`waiting for ragdesk (pid ${holder.pid})`);
      const err = json<{ error: { code: string; message: string } }>(r).error;
      expect(err.code).toBe('busy');
      expect(err.message).toContain(String(holder.pid));
    } finally {
      holder.kill();
      fs.rmSync(lockFile, { force: true });
    }
  });
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the built binary', () => {
  it('bin/ragdesk.js runs the bundled CLI, including its workers: parsing, embedding, analysis (npm test builds first)', async () => {
    const { execFile } = await import('node:child_process');
    const run = (args: string[], nodeArgs: string[] = []) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [...nodeArgs, path.join(ROOT, 'bin/ragdesk.js'), ...args],
          { env: { ...process.env, RAGDESK_OFFLINE: '1' } },
          (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    expect(fs.existsSync(path.join(ROOT, 'out/main/cli.js')), 'out/main/cli.js is missing: run `npm run build` first').toBe(true);
    const dir = tempDir('ragdesk-bin-');
    expect((await run(['--data-dir', dir, 'kb', 'create', 'b', '--model', model])).code).toBe(0);
    // What the main thread loaded, said on stderr at exit: the chunker counts tokens with tokenizers.js alone, so
    // transformers.js' CommonJS dependencies (onnxruntime-node, sharp) load in the embedding worker only.
    const probe = path.join(dir, 'main-modules.mjs');
    fs.writeFileSync(
      probe,
      [
        "import { createRequire } from 'node:module';",
        "import { isMainThread } from 'node:worker_threads';",
        'const cache = createRequire(import.meta.url).cache;',
        'if (isMainThread) process.on("exit", () => process.stderr.write(`main-modules ${JSON.stringify(Object.keys(cache))}\\n`));',
      ].join('\n'),
    );
    // Small chunks, so that a batch is analysed in the analysis worker (more than INLINE_MAX_CHUNKS), which says on
    // stderr when it cannot run.
    const add = await run(
      ['--data-dir', dir, '--json', 'add', path.join(ROOT, 'rag_data'), '--kb', 'b', '--chunk-size', '48', '--chunk-overlap', '8'],
      ['--import', probe],
    );
    expect(add.code, add.stderr).toBe(0);
    const loaded = JSON.parse(/^main-modules (.*)$/m.exec(add.stderr)![1]!) as string[];
    expect(loaded.length, 'the probe sees CommonJS modules').toBeGreaterThan(10);
    expect(loaded.filter((m) => /[\\/]node_modules[\\/](onnxruntime-node|sharp|@huggingface[\\/]transformers)[\\/]/.test(m))).toEqual([]);
    const chunks = (JSON.parse(add.stdout) as { results: Array<{ chunks?: number }> }).results.reduce((n, r) => n + (r.chunks ?? 0), 0);
    expect(chunks).toBeGreaterThan(INLINE_MAX_CHUNKS);
    expect(add.stderr).not.toContain('full-text analysis runs on the main thread');
    const res = await run(['--data-dir', dir, 'search', 'physical inspection', '--kb', 'b', '--mode', 'vector', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).hits.length).toBeGreaterThan(0);
  });
});

describe('the built embedding worker', () => {
  it('loads models on disk (embedding, reranker) without transformers.js: none of its modules load, onnxruntime-node does', async () => {
    const worker = path.join(ROOT, 'out/main/embed-worker.js');
    expect(fs.existsSync(worker), 'out/main/embed-worker.js is missing: run `npm run build` first').toBe(true);
    const client = new EmbedWorkerClient({
      workerPath: worker,
      init: { cacheDir: tempDir('ragdesk-built-worker-') },
      onProgress: () => {},
      onExit: () => {},
    });
    try {
      const loaded = await client.request<LoadResult>({
        type: 'load',
        key: 'm',
        spec: resolveModelSpec(model, 'embedding'),
        allowDownload: false,
      });
      expect(loaded).toMatchObject({ bare: true, table: true, ids: true });
      const out = await client.request<EmbedResult>({ type: 'embed', key: 'm', texts: ['customs clearance at the harbor'] });
      expect(out.count).toBe(1);
      const modules = await client.request<string[]>({ type: 'modules' });
      expect(modules.filter((m) => /[\\/]node_modules[\\/](sharp|@huggingface[\\/]transformers)[\\/]/.test(m))).toEqual([]);
      expect(modules.some((m) => /[\\/]node_modules[\\/]onnxruntime-node[\\/]/.test(m))).toBe(true);
      // The cross-encoder too.
      const { reranker } = await fixtureModels();
      const rerank = await client.request<LoadResult>({
        type: 'load',
        key: 'r',
        spec: resolveModelSpec(reranker, 'rerank'),
        allowDownload: false,
      });
      expect(rerank).toMatchObject({ bare: true });
      const { scores } = await client.request<RerankResult>({
        type: 'rerank',
        key: 'r',
        query: 'harbor',
        passages: ['the harbor', 'pdf'],
        batchSize: 2,
      });
      expect(scores[0]!).toBeGreaterThan(scores[1]!);
      expect(
        (await client.request<string[]>({ type: 'modules' })).filter((m) =>
          /[\\/]node_modules[\\/](sharp|@huggingface[\\/]transformers)[\\/]/.test(m),
        ),
      ).toEqual([]);
    } finally {
      await client.dispose();
    }
  });
});

describe("the desktop app's settings file", () => {
  it('gives the CLI its data dir and the defaults for new KBs (flags and RAGDESK_DATA_DIR still win)', async () => {
    const configHome = tempDir('ragdesk-xdg-');
    const appDataDir = tempDir('ragdesk-app-data-');
    fs.mkdirSync(path.join(configHome, 'ragdesk'));
    fs.writeFileSync(
      path.join(configHome, 'ragdesk', 'settings.json'),
      JSON.stringify({
        dataDir: appDataDir,
        embeddingModel: model,
        chunking: { strategy: 'sentence', chunk_size: 128, chunk_overlap: 16 },
      }),
    );
    const env = { XDG_CONFIG_HOME: configHome, RAGDESK_DATA_DIR: '' };
    const created = json<{ embedding_model: string; chunking: { strategy: string; chunk_size: number } }>(
      await ragdesk(['kb', 'create', 'fromsettings', '--json'], env),
    );
    expect(created.embedding_model).toBe(model);
    expect(created.chunking).toMatchObject({ strategy: 'sentence', chunk_size: 128 });
    expect(fs.existsSync(path.join(appDataDir, 'kbs.json'))).toBe(true);
    const other = tempDir('ragdesk-flag-');
    expect((await ragdesk(['--data-dir', other, 'kb', 'create', 'byflag'], env)).code).toBe(0);
    expect(fs.readFileSync(path.join(other, 'kbs.json'), 'utf8')).toContain('byflag');
  });
});
