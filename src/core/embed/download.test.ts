import { existsSync, mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel } from './fixture-model.js';
import type { ModelProgressEvent } from './types.js';
import { createModelManager } from './model-manager.js';

// The download path without the internet: a local HTTP server plays the hub (`remoteHost`) and serves the
// fixture model as the repo `ragdesk/fixture-dl`. Files must land in <data>/models and load offline afterwards.
let root: string;
let server: http.Server;
let host: string;
const requests: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-download-'));
  const fixture = await buildFixtureModel(path.join(root, 'served'), { dim: 24 });
  server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const m = /^\/ragdesk\/fixture-dl\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m ? path.join(fixture.dir, decodeURIComponent(m[1]!)) : undefined;
    if (!file || !file.startsWith(fixture.dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    void readFile(file).then((body) => {
      res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => {
  server?.close();
});

describe('downloading a hub model into <data>/models', () => {
  it('downloads with progress, then loads from the cache with downloads off', async () => {
    const dataDir = path.join(root, 'data');
    const events: ModelProgressEvent[] = [];
    const online = createModelManager({ dataDir, remoteHost: host, allowDownload: true });
    online.onProgress((e) => events.push(e));
    try {
      const embedder = await online.getEmbedder('ragdesk/fixture-dl');
      expect(embedder.dim).toBe(24);
      expect(embedder.resolved).toBe('ragdesk/fixture-dl');
    } finally {
      await online.dispose();
    }
    const downloading = events.filter((e) => e.state === 'downloading');
    expect(downloading.length).toBeGreaterThan(1);
    for (const e of downloading) expect(e.progress).toBeGreaterThanOrEqual(0);
    expect(downloading.at(-1)?.progress).toBe(1);
    // Progress is throttled to 1% steps, so which files get named depends on timing; every name must be a model file.
    const named = downloading.map((e) => e.file).filter((f): f is string => Boolean(f));
    expect(named.length).toBeGreaterThan(0);
    for (const f of named) expect(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']).toContain(f);
    expect(events.at(-1)?.state).toBe('loaded');
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
      expect(existsSync(path.join(dataDir, 'models', 'ragdesk', 'fixture-dl', f)), f).toBe(true);
    }

    const served = requests.length;
    const offline = createModelManager({ dataDir, allowDownload: false });
    try {
      const embedder = await offline.getEmbedder('ragdesk/fixture-dl');
      expect((await embedder.embedPassages(['heart disease']))[0]!.length).toBe(24);
      const counter = await offline.getTokenCounter('ragdesk/fixture-dl');
      expect(counter.id).toBe('ragdesk/fixture-dl');
      expect(counter.count('heart disease')).toBe(2);
    } finally {
      await offline.dispose();
    }
    expect(requests.length).toBe(served);
  });

  it('a repo the hub does not have is missing', async () => {
    const m = createModelManager({ dataDir: path.join(root, 'data-404'), remoteHost: host, allowDownload: true });
    try {
      await expect(m.getEmbedder('ragdesk/no-such-model')).rejects.toMatchObject({ code: 'model_unavailable' });
      expect(m.status()[0]).toMatchObject({ state: 'missing', model: 'ragdesk/no-such-model' });
    } finally {
      await m.dispose();
    }
  });
});
