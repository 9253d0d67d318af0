import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallerScope } from '../auth/scope.js';
import type { Core } from '../core.js';
import type { InternalErrorEntry } from '../dispatch/internal-errors.js';
import { errorCode, fixtureModels, openTestCore, tempDir } from '../test-support.js';
import type { Job } from '../../shared/contract/index.js';
import { jobForKey, modelNameForKey, textForKey } from './key-view.js';

/** What a key learns about this machine: KB and model names, never endpoint URLs, folders or internal errors. */

const REMOTE = 'openai:text-embedding-3-small@http://127.0.0.1:9/private-gateway/v1?key_env=RAGDESK_TEST_NO_KEY&batch=8';
let core: Core;
let modelDir: string;
const key = (read: string[]): CallerScope => ({ owner: false, read: new Set(read), write: new Set() });

beforeAll(async () => {
  modelDir = (await fixtureModels()).model;
  core = await openTestCore();
  await core.client.createKb({ kb_id: 'local', embedding_model: modelDir });
  await core.client.addDocument({ kb_id: 'local', doc_id: 'a', content: 'Harbour cranes lift containers.' });
  await core.client.createKb({ kb_id: 'remote', embedding_model: REMOTE });
  // The remote endpoint refuses: its status now holds an error that names the URL.
  await core.ctx.models.getEmbedder(REMOTE).catch(() => undefined);
});
afterAll(async () => core.close());

describe('a key sees model names, not where models live', () => {
  it('the owner sees URLs and folders; modelStatus, listKbs, getKb, stats and diagnostic show a key neither', async () => {
    const owner = JSON.stringify(await core.client.modelStatus({}));
    expect(owner).toContain('127.0.0.1:9');
    expect(owner).toContain(modelDir);
    const scoped = core.clientFor(key(['local', 'remote']));
    const seen = JSON.stringify([
      await scoped.modelStatus({}),
      await scoped.listKbs({}),
      await scoped.getKb({ kb_id: 'remote' }),
      await scoped.getKb({ kb_id: 'local' }),
      await scoped.stats({}),
      await scoped.diagnostic({}),
    ]);
    for (const secret of ['127.0.0.1', 'private-gateway', 'key_env', 'RAGDESK_TEST_NO_KEY', 'http', modelDir])
      expect(seen).not.toContain(secret);
    expect(seen).toContain('openai:text-embedding-3-small');
    const status = await scoped.modelStatus({});
    expect(status.find((m) => m.model === 'openai:text-embedding-3-small')).toMatchObject({ state: 'error' });
  });

  it('listSources shows a key the folder name only', async () => {
    const folder = tempDir('ragdesk-private-folder-');
    fs.writeFileSync(path.join(folder, 'n.txt'), 'A note.');
    await core.client.addSource({ kb_id: 'local', path: folder });
    const seen = await core.clientFor(key(['local'])).listSources({});
    expect(seen[0]!.path).toBe(path.basename(folder));
    expect(JSON.stringify(seen)).not.toContain(path.dirname(folder));
    expect((await core.client.listSources({}))[0]!.path).toBe(folder);
  });

  it('names: remote without endpoint and options, folders by name, presets and hub ids as they are', () => {
    expect(modelNameForKey('ollama:nomic-embed-text:v1.5@http://gpu-box:11434')).toBe('ollama:nomic-embed-text:v1.5');
    expect(modelNameForKey('/home/ann/models/e5-small')).toBe('e5-small');
    expect(modelNameForKey('C:\\Users\\ann\\models\\e5-small\\')).toBe('e5-small');
    expect(modelNameForKey('multilingual')).toBe('multilingual');
    expect(modelNameForKey('Xenova/multilingual-e5-small')).toBe('Xenova/multilingual-e5-small');
  });
});

describe('a key reads jobs and messages without folders', () => {
  const job = (current: string | null, ocr?: string, error: string | null = null): Job => ({
    job_id: 'j1',
    kind: 'files',
    kb_id: 'local',
    source_id: null,
    state: error ? 'failed' : 'running',
    created_at: '2026-12-01T00:00:00.000Z',
    updated_at: '2026-12-01T00:00:00.000Z',
    finished_at: null,
    resumed: 0,
    progress: {
      files_total: 3,
      files_done: 1,
      files_failed: 0,
      chunks: 4,
      bytes_total: 10,
      bytes_done: 5,
      elapsed_ms: 10,
      eta_ms: null,
      current,
      ...(ocr ? { current_ocr: { file: ocr, done: 1, total: 4 } } : {}),
    },
    error,
  });

  it('the file a job reads: by name when added from anywhere, by its path in the source folder when synced; no error text', () => {
    const seen = jobForKey(job('/home/ann/private/scan.pdf', 'C:\\Users\\ann\\scans\\page.tiff', 'EACCES: open /home/ann/private'));
    expect(seen.progress.current).toBe('scan.pdf');
    expect(seen.progress.current_ocr?.file).toBe('page.tiff');
    expect(seen.error).not.toContain('/home/ann');
    expect(jobForKey(job('policies/returns.md')).progress.current).toBe('policies/returns.md');
    expect(jobForKey(job(null)).progress).not.toHaveProperty('current_ocr');
  });

  it('messages lose the folders of this machine, known roots first, and keep URLs and relative paths', () => {
    const roots = ['/home/ann/My Docs/handbook', '/home/ann/.config/ragdesk'];
    expect(textForKey('"/home/ann/My Docs/handbook/policies/a b.pdf" is refused', roots)).toBe('"policies/a b.pdf" is refused');
    expect(textForKey('cannot open /home/ann/.config/ragdesk/models/x/model.onnx', roots)).toBe('cannot open models/x/model.onnx');
    expect(textForKey('/srv/other/file.txt is 9 bytes; C:\\Users\\ann\\b.pdf and \\\\server\\share\\c.docx', [])).toBe(
      'file.txt is 9 bytes; b.pdf and c.docx',
    );
    expect(textForKey('see https://example.org/docs/page and policies/returns.md', [])).toBe(
      'see https://example.org/docs/page and policies/returns.md',
    );
  });
});

describe('internal errors reach callers as a reference only', () => {
  it('the message (paths, store internals) goes to the log; the caller gets internal with a ref', async () => {
    const logged: InternalErrorEntry[] = [];
    core.setInternalErrorLog((e) => logged.push(e));
    const docs = core.ctx.store.docs;
    const real = docs.get.bind(docs);
    docs.get = async () => {
      throw new Error('LanceError(IO): /home/ann/.config/ragdesk/lance/documents.lance/data/1.lance: Input/output error');
    };
    try {
      for (const caller of [core.clientFor(key(['local'])), core.client]) {
        const err = (await caller.getDocument({ kb_id: 'local', doc_id: 'a' }).catch((e: unknown) => e)) as {
          code: string;
          message: string;
          details?: { ref?: string };
        };
        expect(err).toMatchObject({ code: 'internal' });
        expect(err.message).not.toContain('/home/ann');
        expect(err.message).not.toContain('LanceError');
        const ref = err.details?.ref;
        expect(ref).toMatch(/^[0-9a-f]{8}$/);
        expect(err.message).toContain(ref!);
        expect(logged.find((l) => l.ref === ref)).toMatchObject({ method: 'getDocument', message: expect.stringContaining('/home/ann') });
      }
    } finally {
      docs.get = real;
    }
    expect(await errorCode(core.client.getDocument({ kb_id: 'local', doc_id: 'missing' }))).toBe('document_not_found');
  });
});

describe('key grants do not outlive their KB', () => {
  it('a KB deleted and made again under the same id is not readable by the old keys', async () => {
    await core.client.createKb({ kb_id: 'again', embedding_model: modelDir });
    const made = await core.client.createKey({ name: 'again-reader', read: ['again', 'local'], write: ['again'] });
    const before = core.ctx.store.registry.list().map((kb) => kb.kb_id);
    expect(before).toContain('again');
    await core.client.deleteKb({ kb_id: 'again' });
    await core.client.createKb({ kb_id: 'again', embedding_model: modelDir });
    await core.client.addDocument({ kb_id: 'again', doc_id: 'new', content: 'A new KB that happens to reuse the id.' });
    const listed = (await core.client.listKeys({})).find((k) => k.id === made.id)!;
    expect(listed).toMatchObject({ read: ['local'], write: [] });
    const scope = core.scopeOf({ kind: 'key', id: listed.id, name: listed.name, read: listed.read, write: listed.write });
    const client = core.clientFor(scope);
    expect(await errorCode(client.getDocument({ kb_id: 'again', doc_id: 'new' }))).toBe('kb_not_found');
    expect((await client.listKbs({})).map((kb) => kb.kb_id)).toEqual(['local']);
  });
});
