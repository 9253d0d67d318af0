import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../core/core.js';
import { FIXTURES } from '../../core/test-support.js';
import { makeFixture, memoryClient, openTestCore, payload, type Fixture, type MemoryPair } from '../test-support.js';

let fx: Fixture;
let core: Core;
let pair: MemoryPair;

beforeAll(async () => {
  fx = await makeFixture();
  core = await openTestCore(fx.dataDir);
  await core.client.createKb({ kb_id: 'folder', embedding_model: fx.modelDir });
  const dir = path.join(fx.root, 'files');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'good.txt'), 'Lighthouses guide ships along the coast.');
  fs.copyFileSync(path.join(FIXTURES, 'encrypted.pdf'), path.join(dir, 'locked.pdf'));
  await core.client.addSource({ kb_id: 'folder', path: dir, source_id: 'files' });
  pair = await memoryClient(core);
});
afterAll(async () => {
  await pair.close();
  await core.close();
  fx.cleanup();
});

describe('MCP: sources and ingestion health', () => {
  it('kb_stats shows each KB its folder sources and their state', async () => {
    const stats = payload<{ kbs: Array<{ kb_id: string; sources: Array<Record<string, unknown>> }> }>(
      await pair.client.callTool({ name: 'kb_stats', arguments: {} }),
    );
    expect(stats.kbs[0]!.sources).toEqual([
      expect.objectContaining({ source_id: 'files', state: 'idle', watching: false, files: 2, indexed: 1, failed: 1, last_error: null }),
    ]);
  });

  it('kb_diagnostic names the files that did not get in, and lists running jobs', async () => {
    const diag = payload<{
      jobs: unknown[];
      ingestion: Array<{ kb_id: string; problems: Array<{ file: string; status: string }> }>;
      warnings: string[];
    }>(await pair.client.callTool({ name: 'kb_diagnostic', arguments: {} }));
    expect(diag.jobs).toEqual([]);
    expect(diag.ingestion).toEqual([
      {
        kb_id: 'folder',
        counts: { ok: 1, encrypted: 1 },
        problems: [expect.objectContaining({ file: 'locked.pdf', status: 'encrypted' })],
      },
    ]);
    expect(diag.warnings.some((w) => w.includes('folder: 1 file(s) did not get in'))).toBe(true);
  });
});
