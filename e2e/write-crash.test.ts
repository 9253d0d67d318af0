import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Core } from '../src/core/core.js';
import { flushIndexing } from '../src/core/services/indexing.js';
import { warmUpSearch } from '../src/core/services/warm-up.js';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import { fixtureModels, tempDir } from '../src/core/test-support.js';
import { json, ragdesk, ROOT } from './cli-support.js';

/**
 * The kill -9 matrix (issue 9): a writer process kills itself with SIGKILL at one stage of a write
 * (RAGDESK_TEST_CRASH_AT, see src/core/store/crash-point.ts); the data dir is then opened again and checked:
 * no half document, no duplicate, every acknowledged write present, search consistent with the rows.
 */

let modelA: string;
let modelB: string;

beforeAll(async () => {
  ({ model: modelA } = await fixtureModels());
  modelB = (await buildFixtureModel(path.join(tempDir('ragdesk-crash-model-'), 'fixture-32'), { dim: 32, seed: 7 })).dir;
}, 120_000);

function drive(dataDir: string, scenario: string, crashAt: string): Promise<{ signal: NodeJS.Signals | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'e2e/crash-driver.ts'), dataDir, scenario, modelA, modelB], {
      cwd: ROOT,
      env: { ...process.env, RAGDESK_OFFLINE: '1', RAGDESK_TEST_CRASH_AT: crashAt },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ signal, stdout }));
  });
}

interface Logged {
  phase: 'begin' | 'done';
  op: 'put' | 'delete';
  doc_id: string;
  marker?: string;
}

/**
 * What the acknowledged operations left: doc_id → the markers its content may hold (null: it may be absent).
 * A document's last acknowledged state, or also the state of the operation in flight at the kill.
 */
function expected(dataDir: string): Map<string, Array<string | null>> {
  const file = path.join(dataDir, 'acked.jsonl');
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
  const state = new Map<string, Array<string | null>>();
  let inFlight: Logged | undefined;
  for (const l of lines.map((x) => JSON.parse(x) as Logged)) {
    if (l.phase === 'begin') inFlight = l;
    else {
      inFlight = undefined;
      state.set(l.doc_id, [l.op === 'put' ? l.marker! : null]);
    }
  }
  if (inFlight) state.set(inFlight.doc_id, [...(state.get(inFlight.doc_id) ?? [null]), inFlight.op === 'put' ? inFlight.marker! : null]);
  return state;
}

/** Every document whole (its chunks: one version, the row's, all of them), no chunk without a row, acked writes present. */
async function verify(dataDir: string, kbId: string, acked: Map<string, Array<string | null>>): Promise<void> {
  const core = await Core.open({ dataDir, allowDownload: false, waitForModels: true });
  try {
    const docs = await core.ctx.store.docs.listAll(kbId);
    expect(new Set(docs.map((d) => d.doc_id)).size, 'no duplicate documents').toBe(docs.length);
    const table = (await core.ctx.store.chunks(kbId))!;
    const pairs = await table.docVersions();
    const rows = new Map(docs.map((d) => [d.doc_id, d]));
    for (const p of pairs) expect(rows.get(p.doc_id)?.version, `chunks of ${p.doc_id} belong to its row`).toBe(p.version);
    for (const d of docs) expect(await table.count(`doc_id = '${d.doc_id}'`), `${d.doc_id} whole`).toBe(d.chunk_count);
    for (const [docId, allowed] of acked) {
      // Through getDocument: a streamed document's text is in its content file, not its row.
      const row = await core.client.getDocument({ kb_id: kbId, doc_id: docId }).catch(() => undefined);
      const marker = row ? (/\b[ms]\d+x\b/.exec(row.content)?.[0] ?? '?') : null;
      expect(allowed, `${docId} holds an acknowledged version (or the one in flight)`).toContain(marker);
      if (marker) {
        const hits = await core.client.search({ kb_ids: [kbId], query: `${marker} entry`, mode: 'fts', top_k: 3 });
        expect(hits.hits[0]?.doc_id, `search finds ${marker}`).toBe(docId);
      }
    }
    // Search agrees with the rows: every hit's document exists, in the version its row names.
    const all = await core.client.search({ kb_ids: [kbId], query: 'cargo harbour entry', mode: 'fts', top_k: 50 });
    for (const h of all.hits) {
      const marker = /\b[ms]\d+x\b/.exec(h.text)?.[0];
      if (marker)
        expect((await core.client.getDocument({ kb_id: kbId, doc_id: h.doc_id })).content, `hit of ${h.doc_id}`).toContain(marker);
    }
    // No unfinished or unowned content file: each belongs to a document's version (store/content-files.ts).
    const owned = new Set(docs.map((d) => path.basename(core.ctx.store.contents.file(kbId, d.doc_id, d.version))));
    const dir = path.dirname(core.ctx.store.contents.file(kbId, 'x', 'y'));
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      expect(owned.has(f), `content file ${f} belongs to a document`).toBe(true);
    // And the KB takes writes again.
    await core.client.addDocument({ kb_id: kbId, doc_id: 'after-restart', content: 'Written after the restart: quay.' });
  } finally {
    await core.close();
  }
}

const STAGES = [
  { name: 'a large overwrite: its content file written, nothing committed', at: 'content-written@2' },
  { name: 'chunks committed, document rows not (an overwrite in flight)', at: 'chunks-written@4' },
  { name: 'a new document: chunks committed, its row not', at: 'chunks-written@5' },
  { name: 'document rows committed, not yet acknowledged', at: 'doc-rows-written@4' },
  { name: 'a delete: chunks gone, rows not', at: 'chunks-deleted@1' },
  { name: 'during index upkeep (mid-optimize)', at: 'upkeep@2' },
];

/** A file written section by section (services/stream-ingest.ts), among ordinary writes. */
const STREAM_STAGES = [
  { name: 'a streamed file: some sections staged, no document row', at: 'section-staged@3' },
  { name: 'a streamed overwrite: sections staged, no document row', at: 'section-staged@9' },
  { name: 'a streamed file between two sections (outside any write lock)', at: 'section-embedded@4' },
  { name: 'a streamed overwrite: document row committed, older rows not yet removed', at: 'staged-doc-row@2' },
];

describe('kill -9 at each write stage', () => {
  for (const stage of STAGES) {
    it(
      stage.name,
      async () => {
        const dataDir = tempDir('ragdesk-kill-');
        const run = await drive(dataDir, 'writes', stage.at);
        expect(run.signal).toBe('SIGKILL');
        const acked = expected(dataDir);
        expect(acked.size).toBeGreaterThan(0);
        await verify(dataDir, 'k', acked);
      },
      120_000,
    );
  }

  for (const stage of STREAM_STAGES) {
    it(
      stage.name,
      async () => {
        const dataDir = tempDir('ragdesk-kill-stream-');
        const run = await drive(dataDir, 'stream', stage.at);
        expect(run.signal).toBe('SIGKILL');
        const acked = expected(dataDir);
        await verify(dataDir, 'k', acked);
        // Nothing of the cut write is left: no staged marker (verify checked the content files).
        expect(fs.readdirSync(path.join(dataDir, 'lance')).filter((n) => n.startsWith('.staging-'))).toEqual([]);
      },
      120_000,
    );
  }

  it('during a model-change swap: the KB is on the old table or the new one, whole, and the change completes', async () => {
    const dataDir = tempDir('ragdesk-kill-model-');
    const run = await drive(dataDir, 'model', 'model-swap');
    expect(run.signal).toBe('SIGKILL');
    const acked = expected(dataDir);
    expect(acked.size).toBe(40);
    await verify(dataDir, 'k', acked);
    const core = await Core.open({ dataDir, allowDownload: false, waitForModels: true });
    try {
      core.warmUp();
      for (let i = 0; ; i++) {
        const { migration } = await core.client.modelChangeStatus({ kb_id: 'k' });
        if (migration?.state === 'done') break;
        if (i > 600) throw new Error(`the change did not finish: ${JSON.stringify(migration)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(core.ctx.store.registry.get('k')).toMatchObject({ embedding_model: modelB, embedding_dim: 32 });
    } finally {
      await core.close();
    }
    await verify(dataDir, 'k', acked);
  }, 180_000);

  it('while upkeep adds the packed hit column to a KB from before it: packed or not, whole, and packed at the next upkeep', async () => {
    const dataDir = tempDir('ragdesk-kill-pack-');
    const run = await drive(dataDir, 'pack', 'pack');
    expect(run.signal).toBe('SIGKILL');
    const acked = expected(dataDir);
    expect(acked.size).toBe(20);
    await verify(dataDir, 'k', acked);
    const core = await Core.open({ dataDir, allowDownload: false });
    try {
      await warmUpSearch(core.ctx);
      await flushIndexing(core.ctx);
      expect((await core.ctx.store.chunks('k'))!.hitsUnpacked).toBe(false);
    } finally {
      await core.close();
    }
    await verify(dataDir, 'k', acked);
  }, 120_000);

  it('during a folder sync: the resumed sync leaves every file once, whole', async () => {
    const dataDir = tempDir('ragdesk-kill-sync-');
    const folder = tempDir('ragdesk-kill-sync-files-');
    for (let i = 0; i < 100; i++)
      fs.writeFileSync(path.join(folder, `n${i}.md`), `# Note ${i}\n\nThe s${i}x entry records cargo at berth ${i % 7}.`);
    expect((await ragdesk(['--data-dir', dataDir, 'kb', 'create', 'k', '--model', modelA])).code).toBe(0);
    const killed = await ragdesk(['--data-dir', dataDir, 'sources', 'add', 'k', folder, '--id', 'f', '--json'], {
      RAGDESK_TEST_CRASH_AT: 'chunks-written@2',
    });
    expect(killed.code).not.toBe(0);
    const r = await ragdesk(['--data-dir', dataDir, 'sources', 'sync', 'f', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<{ summary: { files: number; failed: number } }>(r).summary).toMatchObject({ files: 100, failed: 0 });
    const acked = new Map(Array.from({ length: 100 }, (_, i) => [`f/n${i}.md`, [`s${i}x`]] as [string, string[]]));
    await verify(dataDir, 'k', acked);
  }, 180_000);
});
