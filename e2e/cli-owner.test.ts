import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../src/core/config/data-dir.js';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import { eventually, FIXTURES, fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk, ROOT, type RunResult } from './cli-support.js';
import { httpClient, startServe, stdioClient, type Served } from './mcp-helpers.js';

/**
 * Every CLI command through a live owner of the data dir (issue 8, item 4): `ragdesk serve` and a stdio `ragdesk mcp`
 * owner hold the lock; the commands call their /api with the lock's token and never answer busy. Exit codes are the
 * ones a local run gives.
 */

let model: string;
let other: string;

beforeAll(async () => {
  ({ model } = await fixtureModels());
  other = (await buildFixtureModel(path.join(tempDir('ragdesk-owner-model-'), 'fixture-32'), { dim: 32, seed: 7 })).dir;
}, 120_000);

/** A folder of real documents: the sample KB, a 3-page PDF and one corrupt PDF. */
function documents(): string {
  const dir = tempDir('ragdesk-owner-files-');
  for (const f of ['en-customs-clearance.md', 'en-shipping-incoterms.txt', 'ru-vozvrat-tovara.txt', 'zh-tuihuo-zhengce.md'])
    fs.copyFileSync(path.join(ROOT, 'rag_data', f), path.join(dir, f));
  fs.copyFileSync(path.join(FIXTURES, 'sample.pdf'), path.join(dir, 'handbook.pdf'));
  fs.copyFileSync(path.join(FIXTURES, 'corrupt.pdf'), path.join(dir, 'broken.pdf'));
  return dir;
}

function noBusy(r: RunResult): RunResult {
  expect(`${r.stdout}${r.stderr}`, 'a command answered busy beside a live owner').not.toMatch(/busy|in use by another/i);
  return r;
}

describe('every command through `ragdesk serve`', () => {
  let dataDir: string;
  let served: Served;
  const cli = async (...args: string[]) => noBusy(await ragdesk(['--data-dir', dataDir, ...args]));

  beforeAll(async () => {
    dataDir = tempDir('ragdesk-owner-serve-');
    served = await startServe(dataDir);
  }, 120_000);

  afterAll(async () => {
    await served?.stop();
  });

  it('kb, add (exit 3 for one bad file), search with precise citations, docs, chunks, preview', async () => {
    const lock = JSON.parse(fs.readFileSync(dataPaths(dataDir).lock, 'utf8')) as { pid: number; port: number };
    expect(lock.port).toBe(served.port);
    expect(json(await cli('kb', 'create', 'docs', '--model', model, '--json'))).toMatchObject({ kb_id: 'docs' });

    // Sentence chunks of 128 tokens (the repro): without page-respecting chunking they ran over pages.
    const folder = documents();
    const added = await cli(
      'add',
      folder,
      '--kb',
      'docs',
      '--strategy',
      'sentence',
      '--chunk-size',
      '128',
      '--exclude',
      '**/*.md',
      '--json',
    );
    expect(added.code).toBe(3);
    const out = json<{
      files: number;
      added: number;
      failed: number;
      results: Array<{ file: string; ok: boolean; error?: { code: string } }>;
    }>(added);
    expect(out).toMatchObject({ files: 4, added: 3, failed: 1 });
    // Markdown with the default (heading-aware) chunking.
    expect(json(await cli('add', path.join(folder, '*.md'), '--kb', 'docs', '--json'))).toMatchObject({ files: 2, added: 2 });
    expect(out.results.find((x) => !x.ok)).toMatchObject({ file: expect.stringMatching(/broken\.pdf$/), error: { code: 'parse_failed' } });

    // Text on page 2 of a 3-page PDF cites page 2, in `search --json`.
    const page2 = json<{ hits: Array<{ doc_id: string; location: { page?: number; page_end?: number } }> }>(
      await cli('search', 'defective goods thirty days refund', '--kb', 'docs', '--mode', 'fts', '--json'),
    );
    expect(page2.hits[0]).toMatchObject({ doc_id: 'handbook.pdf', location: { page: 2 } });
    expect(page2.hits[0]!.location.page_end).toBeUndefined();
    const page3 = json<{ hits: Array<{ doc_id: string; location: { page?: number } }> }>(
      await cli('search', 'battery UN38.3 dangerous goods', '--kb', 'docs', '--mode', 'fts', '--json'),
    );
    // The handbook's page-3 chunk and a sentence of the shipping note hold the same terms as often in as many
    // tokens: their BM25 scores are equal, so either may come first.
    expect(page3.hits.slice(0, 2).find((h) => h.doc_id === 'handbook.pdf')).toMatchObject({ location: { page: 3 } });
    // Markdown: the heading path and the source lines of the section the text is in.
    const md = json<{ hits: Array<{ doc_id: string; location: { heading_path?: string[]; line_start?: number; line_end?: number } }> }>(
      await cli('search', 'inspection fee charged to the cost centre', '--kb', 'docs', '--mode', 'fts', '--json'),
    );
    const source = fs.readFileSync(path.join(ROOT, 'rag_data/en-customs-clearance.md'), 'utf8').split('\n');
    const hit = md.hits.find((h) => h.doc_id === 'en-customs-clearance.md')!;
    expect(hit.location.heading_path?.at(-1)).toBe('Physical inspections');
    const line = source.findIndex((l) => l.includes('inspection fee')) + 1;
    expect(hit.location.line_start).toBeLessThanOrEqual(line);
    expect(hit.location.line_end).toBeGreaterThanOrEqual(line);
    const human = await cli('search', 'defective goods thirty days refund', '--kb', 'docs', '--mode', 'fts', '--top-k', '1');
    expect(human.stdout).toContain('docs/handbook.pdf#');
    expect(human.stdout).toMatch(/p\.2\b/);

    const list = json<{ total: number; documents: Array<{ doc_id: string }> }>(await cli('docs', 'list', '--kb', 'docs', '--json'));
    expect(list.total).toBe(5);
    expect(json<{ parser: string }>(await cli('docs', 'show', 'handbook.pdf', '--kb', 'docs', '--json')).parser).toBe('pdf');
    const chunks = json<{ chunks: Array<{ location: { page?: number } }> }>(await cli('chunks', 'handbook.pdf', '--kb', 'docs', '--json'));
    expect(chunks.chunks.map((c) => c.location.page)).toEqual([1, 2, 3]);
    // A relative path: resolved here, read by the owner.
    const preview = json<{ parser: string; chunks: unknown[] }>(await cli('preview', 'rag_data/en-customs-clearance.md', '--json'));
    expect(preview.parser).toBe('markdown');
    expect((await cli('docs', 'rm', 'zh-tuihuo-zhengce.md', '--kb', 'docs')).code).toBe(0);
    const gone = await cli('docs', 'show', 'zh-tuihuo-zhengce.md', '--kb', 'docs', '--json');
    expect(gone.code).toBe(1);
    expect(json<{ error: { code: string } }>(gone).error.code).toBe('document_not_found');
    const bad = await cli('search', 'x', '--kb', 'docs', '--filter', 'nope=1', '--json');
    expect(bad.code).toBe(2);
    expect(json(await cli('kb', 'show', 'docs', '--json'))).toMatchObject({ kb_id: 'docs', document_count: 4 });
  }, 300_000);

  it('keys, sources, jobs, health', async () => {
    const key = json<{ id: string; key: string }>(await cli('keys', 'create', 'agent', '--read', 'docs', '--json'));
    expect(key.key).toMatch(/^rdk_/);
    expect(json<Array<{ name: string }>>(await cli('keys', 'list', '--json')).map((k) => k.name)).toContain('agent');
    expect((await cli('keys', 'revoke', 'agent')).code).toBe(0);

    const folder = tempDir('ragdesk-owner-source-');
    fs.copyFileSync(path.join(ROOT, 'rag_data/en-returns-policy.html'), path.join(folder, 'returns.html'));
    const src = json<{ source_id: string; summary: { added: number } }>(
      await cli('sources', 'add', 'docs', folder, '--id', 'notes', '--json'),
    );
    expect(src).toMatchObject({ source_id: 'notes', summary: { added: 1 } });
    expect(json<Array<{ source_id: string }>>(await cli('sources', 'list', '--json')).map((s) => s.source_id)).toEqual(['notes']);
    fs.copyFileSync(path.join(ROOT, 'rag_data/en-shipping-incoterms.txt'), path.join(folder, 'shipping.txt'));
    // The owner's watcher may take the new file first; either way the sync sees both files.
    expect(json(await cli('sources', 'sync', 'notes', '--json'))).toMatchObject({ source_id: 'notes', summary: { files: 2, failed: 0 } });
    expect(json(await cli('sources', 'pause', 'notes', '--json'))).toMatchObject({ paused: true });
    expect(json(await cli('sources', 'resume', 'notes', '--json'))).toMatchObject({ paused: false });
    const jobs = json<Array<{ kind: string; state: string }>>(await cli('jobs', 'list', '--json'));
    expect(jobs.some((j) => j.kind === 'files' && j.state === 'done')).toBe(true);
    expect(json(await cli('jobs', 'resume', '--json'))).toEqual({ sources: {}, file_jobs: 0 });
    const health = json<{ counts: Record<string, number> }>(await cli('health', '--kb', 'docs', '--json'));
    expect(Object.values(health.counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(4);
    expect(json(await cli('sources', 'rm', 'notes', '--json'))).toMatchObject({ removed: true });
  }, 300_000);

  it('eval on saved queries and a model change with --wait, run by the owner', async () => {
    const queries = path.join(tempDir('ragdesk-owner-q-'), 'q.jsonl');
    fs.writeFileSync(queries, `${JSON.stringify({ query: 'Incoterms FOB shipping', relevant: ['en-shipping-incoterms.txt'] })}\n`);
    const ev = await cli('eval', '--kb', 'docs', '--queries', queries, '--model', other, '--mode', 'fts', '--json');
    expect(ev.code).toBe(0);
    const groups = json<Array<{ model: string; index: string; reports: Array<{ mrr_at_10: number }> }>>(ev);
    expect(groups.map((g) => [g.model, g.index])).toEqual([
      [model, 'current'],
      [other, 'copy'],
    ]);
    expect(groups[0]!.reports[0]!.mrr_at_10).toBe(1);
    const changed = await cli('kb', 'set-model', 'docs', other, '--wait', '--json');
    expect(changed.code, `${changed.stdout}\n${changed.stderr}`).toBe(0);
    expect(json(changed)).toMatchObject({ kb_id: 'docs', state: 'done', to_model: other });
    expect((await cli('kb', 'rm', 'docs')).code).toBe(0);
    expect(json<unknown[]>(await cli('kb', 'list', '--json'))).toEqual([]);
  }, 300_000);
});

describe('a stdio `ragdesk mcp` owner', () => {
  it('serves CLI commands through its private port', async () => {
    const dataDir = tempDir('ragdesk-owner-stdio-');
    const mcp = await stdioClient(dataDir, { name: 'owner' });
    try {
      // The stdio server opens the data dir at its first tool call.
      await mcp.client.callTool({ name: 'list_accessible_kbs', arguments: {} });
      const cli = async (...args: string[]) => noBusy(await ragdesk(['--data-dir', dataDir, ...args]));
      expect((await cli('kb', 'create', 'notes', '--model', model)).code).toBe(0);
      const add = await cli('add', path.join(ROOT, 'rag_data/en-customs-clearance.md'), '--kb', 'notes', '--json');
      expect(json(add)).toMatchObject({ added: 1, failed: 0 });
      const res = await mcp.client.callTool({ name: 'search_kb', arguments: { kb_id: 'notes', query: 'customs broker', mode: 'fts' } });
      expect(JSON.stringify(res.structuredContent)).toContain('en-customs-clearance.md');
    } finally {
      await mcp.close();
    }
  }, 300_000);
});

describe('one-shot commands side by side', () => {
  it('the second waits for the first instead of answering busy', async () => {
    const dataDir = tempDir('ragdesk-owner-oneshot-');
    expect((await ragdesk(['--data-dir', dataDir, 'kb', 'create', 'a', '--model', model])).code).toBe(0);
    // A patient wait: on a loaded machine the first command may hold the data dir for a while.
    const env = { RAGDESK_OWNER_WAIT_MS: '180000' };
    const [x, y] = await Promise.all([
      ragdesk(['--data-dir', dataDir, 'add', path.join(ROOT, 'rag_data/en-customs-clearance.md'), '--kb', 'a', '--json'], env),
      ragdesk(['--data-dir', dataDir, 'add', path.join(ROOT, 'rag_data/en-shipping-incoterms.txt'), '--kb', 'a', '--json'], env),
    ]);
    expect([x.code, y.code]).toEqual([0, 0]);
    expect(json<unknown[]>(await ragdesk(['--data-dir', dataDir, 'kb', 'list', '--json']))[0]).toMatchObject({ document_count: 2 });
  }, 300_000);
});

describe('`ragdesk serve` stops within 5 s of SIGTERM', () => {
  it('with an MCP HTTP session, a console keep-alive connection, a bridged stdio client and an add in flight', async () => {
    const dataDir = tempDir('ragdesk-owner-stop-');
    const served = await startServe(dataDir);
    const mcp = await httpClient(served.url, served.token);
    const bridged = await stdioClient(dataDir, { name: 'bridged' });
    await bridged.client.callTool({ name: 'list_accessible_kbs', arguments: {} });
    // A console tab: a keep-alive connection the browser leaves open after its last call.
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: served.port,
          method: 'POST',
          path: '/api/listKbs',
          headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
        },
        (res) => res.resume().on('end', resolve),
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect((await ragdesk(['--data-dir', dataDir, 'kb', 'create', 'big', '--model', model])).code).toBe(0);
    const many = tempDir('ragdesk-owner-many-');
    for (let i = 0; i < 1500; i++)
      fs.writeFileSync(path.join(many, `n${i}.txt`), `Note ${i} about customs, shipping and returns. `.repeat(40));
    const adding = ragdesk(['--data-dir', dataDir, 'add', many, '--kb', 'big', '--json']);
    // Stop while the owner is in the middle of that job.
    await eventually(async () => {
      const res = await fetch(`${served.url}/api/listJobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ active: true }),
      });
      const { jobs } = (await res.json()) as { jobs: Array<{ state: string; progress: { files_done: number } }> };
      expect(jobs.some((j) => j.state === 'running')).toBe(true);
    }, 60_000);
    const t0 = Date.now();
    const code = await served.stop();
    const took = Date.now() - t0;
    expect(took, `serve took ${took} ms to stop`).toBeLessThan(5000);
    expect(code).toBe(0);
    agent.destroy();
    await mcp.close().catch(() => undefined);
    await bridged.close();
    const add = await adding;
    expect(add.code, add.stderr).not.toBe(0);
  }, 120_000);
});
