import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configureLance, FTS_PARTITION_MIB } from './lance-runtime.js';

describe("LanceDB's CPU pool", () => {
  // Each setting on a 2-core machine, and a value the user set for it stays: the CPU pool's floor (at least 4
  // threads), one full-text build worker, postings written out in parts rather than held whole (LanceDB: 2,048), and
  // ANN statistics without the IVF centroids.
  it.each([
    ['LANCE_CPU_THREADS', '4', '1'],
    ['LANCE_FTS_NUM_SHARDS', '1', '4'],
    ['LANCE_FTS_PARTITION_SIZE', String(FTS_PARTITION_MIB), '512'],
    ['LANCE_INCLUDE_VECTOR_CENTROIDS', 'false', 'true'],
  ])('sets %s to %s unless the user chose (%s stays)', (name, value, chosen) => {
    const plain: NodeJS.ProcessEnv = {};
    configureLance(plain, 2);
    expect(plain[name]).toBe(value);
    const set: NodeJS.ProcessEnv = { [name]: chosen };
    configureLance(set, 2);
    expect(set[name]).toBe(chosen);
  });

  it('gives the CPU pool the core count on a big machine, and holds less than a whole index in memory', () => {
    const big: NodeJS.ProcessEnv = {};
    configureLance(big, 16);
    expect(big.LANCE_CPU_THREADS).toBe('16');
    expect(FTS_PARTITION_MIB).toBeLessThan(2048);
  });

  // LanceDB 0.31 parses these without a check: "x" panics inside it (every query after, for the CPU pool), "" too,
  // and 0 I/O threads hangs the first read.
  it.each([
    ['LANCE_CPU_THREADS', 'x'],
    ['LANCE_CPU_THREADS', '0'],
    ['LANCE_IO_THREADS', 'eight'],
    ['LANCE_IO_THREADS', '0'],
    ['LANCE_FTS_NUM_SHARDS', '-1'],
    ['LANCE_FTS_PARTITION_SIZE', '1.5'],
    ['LANCE_FTS_PARTITION_SIZE', '1000000'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    const env: NodeJS.ProcessEnv = { [name]: value };
    expect(() => configureLance(env, 2)).toThrow(
      expect.objectContaining({ code: 'invalid_parameter', message: expect.stringContaining(name) }),
    );
  });

  it('takes a blank count as unset (its default, or none for LanceDB to choose) and trims the others', () => {
    const env: NodeJS.ProcessEnv = { LANCE_CPU_THREADS: ' ', LANCE_IO_THREADS: '', LANCE_FTS_NUM_SHARDS: ' 2 ' };
    configureLance(env, 2);
    expect(env.LANCE_CPU_THREADS).toBe('4');
    expect('LANCE_IO_THREADS' in env).toBe(false);
    expect(env.LANCE_FTS_NUM_SHARDS).toBe('2');
  });

  it('is set before the store connects (a fresh process that opens a store)', () => {
    const code = `
      const { Store } = await import(${JSON.stringify(new URL('./store.ts', import.meta.url).href)});
      const os = await import('node:os'); const fs = await import('node:fs'); const path = await import('node:path');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-lance-env-'));
      const s = await Store.open(path.join(dir, 'lance'), path.join(dir, 'kbs.json'));
      // An ANN index's statistics, as upkeep asks them: LanceDB warns on stderr unless told about its centroids.
      const { Index } = await import('@lancedb/lancedb');
      const t = await s.db.createTable('v', Array.from({ length: 300 }, (_, i) => ({ vector: [Math.sin(i), Math.cos(i), Math.sin(2 * i), 1] })));
      await t.createIndex('vector', { config: Index.ivfPq({ numPartitions: 2, numSubVectors: 2 }) });
      if (!(await t.indexStats('vector_idx'))) throw new Error('no index statistics');
      process.stdout.write(String(process.env.LANCE_CPU_THREADS) + ' ' + String(process.env.LANCE_FTS_NUM_SHARDS) + ' ' + String(process.env.LANCE_FTS_PARTITION_SIZE));
      fs.rmSync(dir, { recursive: true, force: true });`;
    const env = { ...process.env };
    delete env.LANCE_CPU_THREADS;
    delete env.LANCE_FTS_NUM_SHARDS;
    delete env.LANCE_FTS_PARTITION_SIZE;
    delete env.LANCE_INCLUDE_VECTOR_CENTROIDS;
    // Blank, LanceDB would panic at the first read (its I/O thread count parsed as a number).
    env.LANCE_IO_THREADS = '';
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/centroids/);
    const [threads, shards, partition] = r.stdout.trim().split(' ');
    expect(Number(threads)).toBeGreaterThanOrEqual(4);
    expect(shards).toBe('1');
    expect(partition).toBe(String(FTS_PARTITION_MIB));
  }, 90_000);
});
