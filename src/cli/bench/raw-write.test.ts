import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GROUP_CHUNKS } from '../../core/jobs/runner.js';
import { openTestCore, tempDir } from '../../core/test-support.js';
import { rawWrite } from './raw-write.js';

describe('rawWrite: LanceDB alone on what an add stored', () => {
  it('writes every chunk and document row of the data dir again, in the job’s batches, and builds its full-text index', async () => {
    const dataDir = tempDir();
    const core = await openTestCore({ dataDir });
    await core.client.createKb({ kb_id: 'plain', embedding_model: 'none' });
    // More chunks than one batch of a job: two adds of chunk rows.
    const documents = Array.from({ length: 12 }, (_, d) => ({
      doc_id: `d${d}`,
      content: Array.from({ length: 200 }, (_, p) => `Paragraph ${p} of document ${d}: customs duties, таможенные платежи, 退货.`).join(
        '\n\n',
      ),
      chunking: { strategy: 'token' as const, chunk_size: 16, chunk_overlap: 0 },
    }));
    const added = await core.client.addDocumentsBatch({ kb_id: 'plain', documents });
    expect(added.results.map((r) => r.result?.status)).toEqual(documents.map(() => 'added'));
    const { chunks } = (await core.client.stats({})).kbs.find((k) => k.kb_id === 'plain')!;
    await core.close();
    expect(chunks).toBeGreaterThan(GROUP_CHUNKS);

    const scratch = path.join(tempDir(), 'raw');
    const raw = await rawWrite(dataDir, scratch);
    expect(raw).toMatchObject({ chunks, documents: 12, commits: Math.ceil(chunks / GROUP_CHUNKS), indexes: ['fts'] });
    expect(raw.seconds).toBeCloseTo(raw.write_s + raw.index_s, 1);
    expect(fs.existsSync(scratch)).toBe(false);
  }, 120_000);
});
