import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AutoTokenizer, env, type Tensor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from './fixture-model.js';
import { int64Rows } from './int64-rows.js';

describe('int64Rows', () => {
  it("gives the same arrays and shapes as transformers.js' own tensors for a padded batch", async () => {
    const model = await buildFixtureModel(mkdtempSync(path.join(os.tmpdir(), 'ragdesk-int64-rows-')));
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    const tokenizer = await AutoTokenizer.from_pretrained(model.dir, { local_files_only: true });
    const texts = ['customs', 'customs clearance of a parcel at the border', 'таможенное оформление', '海关清关 shipping'];
    const tensors = tokenizer(texts, { padding: true, truncation: true }) as unknown as Record<string, Tensor>;
    const rows = tokenizer(texts, { padding: true, truncation: true, return_tensor: false }) as unknown as Record<string, number[][]>;
    const ours = int64Rows(rows);
    expect(Object.keys(ours).sort()).toEqual(Object.keys(tensors).sort());
    expect(Object.keys(ours)).toContain('attention_mask');
    for (const [key, t] of Object.entries(tensors)) {
      expect(ours[key]!.dims).toEqual(t.dims);
      expect(ours[key]!.data).toEqual(t.data);
    }
    // padding is there: the shortest text's mask ends in zeros
    expect(ours.attention_mask!.data[ours.attention_mask!.dims[1] - 1]).toBe(0n);
  });

  it('refuses rows of different lengths', () => {
    expect(() => int64Rows({ input_ids: [[1, 2, 3], [4]] })).toThrow(/differ in length/);
  });
});
