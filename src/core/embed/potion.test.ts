import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createModelManager } from './model-manager.js';

// A small trained model beside the project (../shared/models), used when present; never required.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const POTION = process.env.RAGDESK_POTION_DIR ?? path.resolve(repoRoot, '../shared/models/potion-base-4M-int8');
const present = existsSync(path.join(POTION, 'onnx', 'model.onnx'));
const title = present
  ? 'loads potion-base-4M-int8 as a folder model: "heart disease" is closer to "cardiovascular illness" than to "tax law"'
  : `skipped: no trained model at ${POTION} (set RAGDESK_POTION_DIR to run this test)`;

describe('a real trained model (optional)', () => {
  it.skipIf(!present)(title, async () => {
    const manager = createModelManager({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'ragdesk-potion-')), allowDownload: false });
    try {
      const embedder = await manager.getEmbedder(POTION);
      expect(embedder.dim).toBe(128);
      const [q] = await embedder.embedQueries(['heart disease']);
      const [near, far] = await embedder.embedPassages(['cardiovascular illness', 'tax law']);
      const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
      expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!));
      const counter = await manager.getTokenCounter(POTION);
      expect(counter.id).toBe(POTION);
      expect(counter.count('heart disease')).toBe(2);
    } finally {
      await manager.dispose();
    }
  });
});
