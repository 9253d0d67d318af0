import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../test-support.js';
import { buildFixtureModel } from './fixture-model.js';
import { createModelManager } from './model-manager.js';
import { discardEarlyWorker, earlyWorkerState, embedWorkerInit, startEmbedWorkerEarly } from './worker-client.js';
import { resolveEmbedWorkerPath } from './worker-path.js';

const tempDir = tempDirsPerTest('ragdesk-worker-client-');

/** A model manager over a fresh data dir holding the fixture model; embeds one text through it. */
async function embedOnce(dataDir: string): Promise<number> {
  const model = await buildFixtureModel(path.join(dataDir, 'models', 'fixture'), { dim: 16 });
  const manager = createModelManager({ dataDir, allowDownload: false });
  try {
    const [vector] = await (await manager.getEmbedder(model.dir)).embedPassages(['harbor fees']);
    return vector!.length;
  } finally {
    await manager.dispose();
  }
}

describe('a worker started early', () => {
  it('is adopted by the first model manager of the same data dir, which embeds with it (no second worker)', async () => {
    const dataDir = tempDir();
    const before = earlyWorkerState().adopted;
    expect(startEmbedWorkerEarly(resolveEmbedWorkerPath(), embedWorkerInit(dataDir))).toBe(true);
    // One waits at a time.
    expect(startEmbedWorkerEarly(resolveEmbedWorkerPath(), embedWorkerInit(dataDir))).toBe(false);
    expect(earlyWorkerState().waiting).toBe(true);
    expect(await embedOnce(dataDir)).toBe(16);
    expect(earlyWorkerState()).toEqual({ adopted: before + 1, waiting: false });
  });

  it('is stopped, not adopted, by a manager of another data dir, which starts its own', async () => {
    const before = earlyWorkerState().adopted;
    startEmbedWorkerEarly(resolveEmbedWorkerPath(), embedWorkerInit(tempDir()));
    expect(await embedOnce(tempDir())).toBe(16);
    expect(earlyWorkerState()).toEqual({ adopted: before, waiting: false });
  });

  it('is stopped when its engine closes without embedding, and when it is discarded', async () => {
    const dataDir = tempDir();
    startEmbedWorkerEarly(resolveEmbedWorkerPath(), embedWorkerInit(dataDir));
    await createModelManager({ dataDir, allowDownload: false }).dispose();
    expect(earlyWorkerState().waiting).toBe(false);
    startEmbedWorkerEarly(resolveEmbedWorkerPath(), embedWorkerInit(dataDir));
    await discardEarlyWorker();
    expect(earlyWorkerState().waiting).toBe(false);
  });

  it('that dies before anyone takes it leaves no worker waiting; the engine starts its own', async () => {
    const dataDir = tempDir();
    const missing = path.join(dataDir, 'no-such-worker.js');
    startEmbedWorkerEarly(missing, embedWorkerInit(dataDir));
    // The script does not exist: the early worker errors and exits before anyone takes it.
    for (let i = 0; i < 200 && earlyWorkerState().waiting; i++) await new Promise((r) => setTimeout(r, 10));
    expect(earlyWorkerState().waiting).toBe(false);
    expect(await embedOnce(dataDir)).toBe(16);
  });
});
