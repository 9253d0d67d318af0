import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { embedWorkerCandidates, resolveEmbedWorkerPath, workerSpawn } from './worker-path.js';

describe('resolveEmbedWorkerPath', () => {
  it('finds the TypeScript worker next to this module when running from sources', () => {
    expect(resolveEmbedWorkerPath()).toBe(path.join(import.meta.dirname, 'embed-worker.ts'));
  });

  it('finds out/main/embed-worker.js from a bundle entry and from a shared chunk', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-bundle-'));
    const main = path.join(root, 'out', 'main');
    mkdirSync(path.join(main, 'chunks'), { recursive: true });
    for (const f of ['index.js', 'cli.js', 'embed-worker.js', 'chunks/core-abc123.js']) writeFileSync(path.join(main, f), '');
    const worker = path.join(main, 'embed-worker.js');
    expect(resolveEmbedWorkerPath(pathToFileURL(path.join(main, 'index.js')))).toBe(worker);
    expect(resolveEmbedWorkerPath(pathToFileURL(path.join(main, 'cli.js')).href)).toBe(worker);
    expect(resolveEmbedWorkerPath(pathToFileURL(path.join(main, 'chunks', 'core-abc123.js')))).toBe(worker);
    expect(embedWorkerCandidates(path.join(main, 'chunks', 'x.js'))[1]).toBe(worker);
  });

  it('says where it looked when there is no worker script', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-noworker-'));
    expect(() => resolveEmbedWorkerPath(pathToFileURL(path.join(dir, 'index.js')))).toThrow(/embedding worker script was not found/);
  });
});

describe('workerSpawn', () => {
  it('runs built JavaScript directly', () => {
    expect(workerSpawn('/app/out/main/embed-worker.js')).toEqual({ filename: '/app/out/main/embed-worker.js', eval: false });
  });

  it('boots TypeScript sources through tsx registered inside the worker', () => {
    const spawn = workerSpawn('/src/core/embed/embed-worker.ts');
    expect(spawn.eval).toBe(true);
    expect(spawn.filename).toContain('register()');
    expect(spawn.filename).toContain(JSON.stringify(pathToFileURL('/src/core/embed/embed-worker.ts').href));
    expect(spawn.filename).toMatch(/tsx\/dist\/esm\/api\/index\.mjs/);
  });
});
