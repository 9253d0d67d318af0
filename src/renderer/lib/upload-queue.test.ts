import { describe, expect, it } from 'vitest';
import type { AddResult } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { runUploads, type UploadJob } from './upload-queue.js';

const job = (id: string): UploadJob => ({ id, path: `${id}.md`, size: 1, stage: 'queued' });
const ok = (id: string, status: AddResult['status'] = 'added'): AddResult => ({
  kb_id: 'k',
  doc_id: id,
  status,
  chunk_count: 2,
  parser: 'markdown',
  embedded: true,
});

describe('runUploads', () => {
  it('goes parse → chunk → embed → done per file, one file at a time', async () => {
    const events: string[] = [];
    let inFlight = 0;
    const tally = await runUploads([job('a'), job('b')], {
      prepare: async () => ({ chunks: 3 }),
      upload: async (j) => {
        inFlight++;
        expect(inFlight).toBe(1);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return ok(j.id);
      },
      onUpdate: (id, p) => p.stage && events.push(`${id}:${p.stage}`),
    });
    expect(events).toEqual(['a:parse', 'a:chunk', 'a:embed', 'a:done', 'b:parse', 'b:chunk', 'b:embed', 'b:done']);
    expect(tally).toEqual({ done: 2, skipped: 0, failed: 0, cancelled: 0 });
  });

  it('records a failing file with its code and message and keeps going', async () => {
    const updates: Record<string, Partial<UploadJob>> = {};
    const tally = await runUploads([job('bad'), job('good')], {
      prepare: async (j) => {
        if (j.id === 'bad') throw new RagError('parse_failed', 'the PDF is damaged');
        return { chunks: 1 };
      },
      upload: async (j) => ok(j.id),
      onUpdate: (id, p) => (updates[id] = { ...updates[id], ...p }),
    });
    expect(updates.bad).toMatchObject({ stage: 'error', error: { code: 'parse_failed', message: 'the PDF is damaged' } });
    expect(updates.good?.stage).toBe('done');
    expect(tally).toEqual({ done: 1, skipped: 0, failed: 1, cancelled: 0 });
  });

  it('counts skipped duplicates, and a cancel stops the files not yet started', async () => {
    const controller = new AbortController();
    const stages: Record<string, string> = {};
    const tally = await runUploads([job('a'), job('b'), job('c')], {
      signal: controller.signal,
      prepare: async () => ({ chunks: 1 }),
      upload: async (j) => {
        controller.abort();
        return ok(j.id, 'skipped');
      },
      onUpdate: (id, p) => p.stage && (stages[id] = p.stage),
    });
    expect(stages).toEqual({ a: 'skipped', b: 'cancelled', c: 'cancelled' });
    expect(tally).toEqual({ done: 0, skipped: 1, failed: 0, cancelled: 2 });
  });
});
