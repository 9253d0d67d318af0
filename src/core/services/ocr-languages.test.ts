import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core.js';
import { DEBIAN_TESSDATA, haveTessdata } from '../ocr/test-support.js';
import { errorCode, openTestCore, tempDir } from '../test-support.js';

// The OCR language operations through the contract client, on a real Core. Downloads come from a loopback server.
const hasData = haveTessdata(['rus', 'chi_sim']);

describe.runIf(hasData)('OCR language operations', () => {
  let core: Core;
  let server: http.Server;
  const served: string[] = [];

  beforeAll(async () => {
    const chi = gzipSync(fs.readFileSync(path.join(DEBIAN_TESSDATA, 'chi_sim.traineddata')));
    server = http.createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url !== '/chi_sim.traineddata.gz') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': chi.length }).end(chi);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.RAGDESK_OCR_DATA_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{code}.traineddata.gz`;
    core = await openTestCore();
  });
  afterAll(async () => {
    delete process.env.RAGDESK_OCR_DATA_URL;
    await core?.close();
    server?.close();
  });

  it('lists the languages, imports from a folder, and downloads on request', async () => {
    const before = await core.client.ocrLanguages({});
    expect(before.allow_download).toBe(false);
    expect(before.languages.map((l) => [l.code, l.state])).toEqual([
      ['eng', 'ready'],
      ['rus', 'missing'],
      ['chi_sim', 'missing'],
    ]);
    const imported = await core.client.importOcrLanguages({ path: DEBIAN_TESSDATA, languages: ['ru'] });
    expect(imported.imported.map((i) => i.code)).toEqual(['rus']);
    expect(fs.existsSync(path.join(core.dataDir, 'models', 'tessdata', 'rus.traineddata'))).toBe(true);
    // The owner asked: downloaded even though scans would not download on their own here.
    const after = await core.client.downloadOcrLanguages({ languages: ['zh'] });
    expect(served).toEqual(['/chi_sim.traineddata.gz']);
    expect(after.languages.find((l) => l.code === 'chi_sim')).toMatchObject({ state: 'ready', source: 'installed' });
    expect(after.languages.find((l) => l.code === 'rus')).toMatchObject({ state: 'ready', source: 'installed' });
  });

  it('refuses an empty folder and names that are no language', async () => {
    expect(await errorCode(core.client.importOcrLanguages({ path: tempDir() }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.downloadOcrLanguages({ languages: ['../../etc'] }))).toBe('invalid_parameter');
    expect(await errorCode(core.client.downloadOcrLanguages({ languages: ['deu'] }))).toBe('model_unavailable');
  });
});
