import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureModel, type FixtureModelInfo } from './fixture-model.js';
import { createModelManager, type WorkerModelManager } from './model-manager.js';

// The embedding runs in the worker: a timer on this (main) thread keeps firing while a big batch is embedded.
// Loose on purpose: the tick count only has to show the loop was not blocked; no timing is asserted precisely.
let fixture: FixtureModelInfo;
let manager: WorkerModelManager;

beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ragdesk-responsive-'));
  fixture = await buildFixtureModel(path.join(root, 'fixture'), { dim: 384 });
  manager = createModelManager({ dataDir: path.join(root, 'data'), allowDownload: false, batchSize: 64 });
  await manager.getEmbedder(fixture.dir); // load first: the test is about embedding, not loading
});

afterAll(async () => {
  await manager?.dispose();
});

const WORDS = 'heart disease treatment tax law customs river forest city music таможня закон 中 国 人'.split(' ');

describe('main thread responsiveness', () => {
  it('keeps the event loop ticking while a large batch is embedded', async () => {
    const texts = Array.from({ length: 3_000 }, (_, i) =>
      Array.from({ length: 60 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' '),
    );
    const embedder = await manager.getEmbedder(fixture.dir);
    const intervalMs = 10;
    let ticks = 0;
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, intervalMs);
    const started = performance.now();
    const vectors = await embedder.embedPassages(texts);
    const elapsed = performance.now() - started;
    clearInterval(timer);

    expect(vectors).toHaveLength(texts.length);
    expect(vectors[texts.length - 1]!.length).toBe(384);
    const expected = elapsed / intervalMs;
    process.stderr.write(
      `responsiveness: ${texts.length} texts in ${elapsed.toFixed(0)} ms, ${ticks} ticks of ~${expected.toFixed(0)} possible, longest gap ${longestGap.toFixed(0)} ms\n`,
    );
    // Embedding on the main thread would give ~0 ticks for the whole run; off-thread, most of them fire.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(expected * 0.3));
    expect(longestGap).toBeLessThan(Math.max(1000, elapsed / 2));
  });
});
