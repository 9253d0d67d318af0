import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OcrLanguageStore, type OcrDataEvent } from './lang-store.js';
import { DEBIAN_TESSDATA, haveTessdata, storeWith } from './test-support.js';
import { traineddataProblem } from './traineddata.js';

// The download path without the internet: a loopback server plays the CDN and serves Debian's Russian data gzipped,
// as jsDelivr serves `@tesseract.js-data/<code>`. Nothing here reaches the network.
const hasData = haveTessdata(['rus', 'chi_sim']);
let server: http.Server;
let base: string;
const requests: string[] = [];
let rusGz: Buffer;

beforeAll(async () => {
  rusGz = hasData ? gzipSync(fs.readFileSync(path.join(DEBIAN_TESSDATA, 'rus.traineddata'))) : Buffer.alloc(0);
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/rus/rus.traineddata.gz') {
      // Slowly, in pieces, so progress has steps to report.
      res.writeHead(200, { 'content-length': rusGz.length, 'content-type': 'application/gzip' });
      let at = 0;
      const step = Math.ceil(rusGz.length / 8);
      const send = () => {
        if (at >= rusGz.length) return void res.end();
        res.write(rusGz.subarray(at, at + step));
        at += step;
        setTimeout(send, 5);
      };
      return send();
    }
    if (req.url === '/cut/cut.traineddata.gz') {
      // The connection drops a kilobyte in.
      res.writeHead(200, { 'content-length': rusGz.length });
      res.write(rusGz.subarray(0, 1000), () => res.destroy());
      return;
    }
    if (req.url === '/htm/htm.traineddata.gz') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'Rate limited. '.repeat(500)}</body></html>`);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{code}/{code}.traineddata.gz`;
});

afterAll(() => {
  server?.close();
});

function tempModels(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-ocr-store-'));
}

describe('OCR language data', () => {
  it('has English out of the box (the npm package) and nothing else', () => {
    const store = new OcrLanguageStore({ modelsDir: tempModels(), allowDownload: false });
    expect(store.has('eng')).toBe(true);
    expect(store.has('rus')).toBe(false);
    const list = store.list();
    expect(list.find((l) => l.code === 'eng')).toMatchObject({ state: 'ready', source: 'bundled' });
    expect(list.find((l) => l.code === 'rus')).toMatchObject({ state: 'missing', name: 'Russian' });
    expect(list.find((l) => l.code === 'chi_sim')).toMatchObject({ state: 'missing', script: 'cjk' });
  });

  it.runIf(hasData)("imports Debian's traineddata from its folder, only the languages asked for", () => {
    const store = storeWith(['rus', 'chi_sim']);
    expect(store.has('rus') && store.has('chi_sim')).toBe(true);
    expect(store.has('osd')).toBe(false);
    expect(store.list().find((l) => l.code === 'rus')).toMatchObject({ state: 'ready', source: 'installed' });
    expect(fs.readdirSync(store.dir).sort()).toEqual(['chi_sim.traineddata', 'rus.traineddata']);
  });

  it('rejects files that are not language data, and a gzipped copy works like the plain one', () => {
    const src = tempModels();
    fs.writeFileSync(path.join(src, 'fak.traineddata'), 'not language data at all '.repeat(400));
    fs.writeFileSync(path.join(src, 'tin.traineddata'), 'x');
    fs.writeFileSync(path.join(src, 'readme.txt'), 'ignored');
    if (hasData) fs.writeFileSync(path.join(src, 'rus.traineddata.gz'), rusGz);
    const store = new OcrLanguageStore({ modelsDir: tempModels(), allowDownload: false });
    const result = store.importFrom(src);
    expect(result.rejected.map((r) => path.basename(r.file)).sort()).toEqual(['fak.traineddata', 'tin.traineddata']);
    expect(result.rejected.find((r) => r.file.endsWith('tin.traineddata'))?.reason).toMatch(/too small/);
    expect(store.has('fak')).toBe(false);
    if (hasData) {
      expect(result.imported.map((i) => i.code)).toEqual(['rus']);
      expect(traineddataProblem(fs.readFileSync(store.fileOf('rus')))).toBeUndefined();
    }
  });

  it('says model_unavailable, naming the folder and the import command, when a language is missing and downloads are off', async () => {
    const store = new OcrLanguageStore({ modelsDir: tempModels(), allowDownload: false });
    const err = await store.ensure(['chi_sim']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'model_unavailable', details: { language: 'chi_sim', state: 'missing' } });
    expect((err as Error).message).toMatch(/Chinese \(Simplified\) \(chi_sim\).*downloads are off.*ragdesk models import/);
  });

  it('says model_unavailable when the download fails (offline), and leaves nothing behind', async () => {
    const store = new OcrLanguageStore({ modelsDir: tempModels(), dataUrl: 'http://127.0.0.1:9/{code}.traineddata.gz' });
    await expect(store.ensure(['rus'])).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/download .* failed/),
    });
    expect(store.has('rus')).toBe(false);
    expect(fs.existsSync(store.dir) ? fs.readdirSync(store.dir) : []).toEqual([]);
  });

  it.runIf(hasData)('downloads a missing language once, with progress, into <data>/models/tessdata', async () => {
    const store = new OcrLanguageStore({ modelsDir: tempModels(), dataUrl: base });
    const events: OcrDataEvent[] = [];
    store.onEvent((e) => events.push(e));
    const before = requests.length;
    // Asked twice at once: one download.
    await Promise.all([store.ensure(['rus']), store.ensure(['rus'])]);
    expect(requests.slice(before)).toEqual(['/rus/rus.traineddata.gz']);
    expect(store.list().find((l) => l.code === 'rus')).toMatchObject({ state: 'ready', source: 'installed' });
    const progress = events.filter((e) => e.state === 'downloading').map((e) => e.progress!);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
    expect(events.at(-1)).toEqual({ code: 'rus', state: 'ready' });
    // Stored unpacked, checked, and found again offline.
    expect(traineddataProblem(fs.readFileSync(store.fileOf('rus')))).toBeUndefined();
    const offline = new OcrLanguageStore({ modelsDir: store.modelsDir, allowDownload: false });
    await offline.ensure(['rus']);
    expect(requests.length).toBe(before + 1);
  });

  it('refuses a cut-off download and an HTML error page saved under the right name', async () => {
    const store = new OcrLanguageStore({ modelsDir: tempModels(), dataUrl: base });
    await expect(store.ensure(['cut'])).rejects.toMatchObject({ code: 'model_unavailable' });
    await expect(store.ensure(['htm'])).rejects.toMatchObject({
      code: 'model_unavailable',
      message: expect.stringMatching(/not Tesseract language data/),
    });
    expect(store.has('cut') || store.has('htm')).toBe(false);
  });
});
