import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { buildFixtureModel } from '../../core/embed/fixture-model.js';
import { flushIndexing } from '../../core/services/indexing.js';
import { percentile, round } from './stats.js';

const WORDS = 'harbour crane berth cargo pallet customs tariff invoice freight vessel dock manifest container route tug pilot'.split(' ');

/** `n` small, distinct text files in 100 subfolders. */
function makeFolder(dir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const sub = path.join(dir, `d${String(i % 100).padStart(2, '0')}`);
    if (i < 100) fs.mkdirSync(sub, { recursive: true });
    const words = Array.from({ length: 40 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
    fs.writeFileSync(path.join(sub, `f${i}.txt`), `Record ${i}. ${words}. Entry number ${i * 7919}.\n`);
  }
}

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return round(percentile(samples, 50), 1);
}

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Folder sources: the no-op sync of 1,000 unchanged files, and re-indexing one changed file in a 10,000-file source
 * (a full rescan as `ragdesk sources sync` does it, and the watcher's path-only sync), plus how long a saved file
 * takes to become searchable with the watcher on. Small text files, the fixture embedding model (real embedding).
 */
export async function benchSources(workDir: string): Promise<Record<string, unknown>> {
  const model = await buildFixtureModel(path.join(workDir, 'sources-model'));
  const dataDir = path.join(workDir, 'sources-data');
  const small = path.join(workDir, 'src-1k');
  const large = path.join(workDir, 'src-10k');
  makeFolder(small, 1000);
  makeFolder(large, 10_000);
  let core = await Core.open({ dataDir, allowDownload: false });
  const out: Record<string, unknown> = {};
  try {
    await core.client.createKb({ kb_id: 'small', embedding_model: model.dir });
    await core.client.createKb({ kb_id: 'large', embedding_model: model.dir });
    let start = performance.now();
    await core.client.addSource({ kb_id: 'small', path: small, source_id: 'small' });
    out.first_sync_1k_s = round((performance.now() - start) / 1000);
    start = performance.now();
    await core.client.addSource({ kb_id: 'large', path: large, source_id: 'large' });
    out.first_sync_10k_s = round((performance.now() - start) / 1000);
    await flushIndexing(core.ctx);

    out.noop_sync_1k_ms = await median(5, () => core.sources.sync('small', {}));
    out.noop_sync_10k_ms = await median(3, () => core.sources.sync('large', {}));
    let n = 0;
    const change = () =>
      fs.writeFileSync(path.join(large, 'd42', 'f4242.txt'), `Record 4242 changed ${++n}: a lighthouse keeper logs the tide.\n`);
    out.reindex_one_of_10k_full_rescan_ms = await median(5, async () => {
      change();
      const s = await core.sources.sync('large', {});
      if (s.updated !== 1) throw new Error(`expected 1 update, got ${JSON.stringify(s)}`);
    });
    out.reindex_one_of_10k_watcher_path_ms = await median(5, async () => {
      change();
      const s = await core.sources.sync('large', { paths: ['d42/f4242.txt'] });
      if (s.updated !== 1) throw new Error(`expected 1 update, got ${JSON.stringify(s)}`);
    });
    await core.close();

    // With the watcher: from saving a file to finding it, debounce (500 ms) included.
    core = await Core.open({ dataDir, allowDownload: false, watchSources: true });
    await until(async () => core.sources.list().every((s) => s.watching && s.state === 'idle'), 120_000);
    const samples: number[] = [];
    for (let i = 0; i < 3; i++) {
      const word = `beacon${i}x${Date.now().toString(36)}`;
      const t0 = performance.now();
      fs.writeFileSync(path.join(small, 'd07', 'f7.txt'), `Record 7 now mentions ${word}.\n`);
      await until(async () => (await core.client.search({ kb_ids: ['small'], query: word, mode: 'fts' })).hits.length > 0);
      samples.push(performance.now() - t0);
    }
    out.edit_to_searchable_watched_ms = round(percentile(samples, 50), 0);
  } finally {
    await core.close();
  }
  return out;
}
