import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configureLance, FTS_PARTITION_MIB } from './lance-runtime.js';

describe("LanceDB's CPU pool", () => {
  it('gets at least 4 threads on a small machine, the core count on a big one, and a value the user set stays', () => {
    const small: NodeJS.ProcessEnv = {};
    configureLance(small, 2);
    expect(small.LANCE_CPU_THREADS).toBe('4');
    const big: NodeJS.ProcessEnv = {};
    configureLance(big, 16);
    expect(big.LANCE_CPU_THREADS).toBe('16');
    const set: NodeJS.ProcessEnv = { LANCE_CPU_THREADS: '1' };
    configureLance(set, 2);
    expect(set.LANCE_CPU_THREADS).toBe('1');
  });

  it('builds the full-text index with one worker unless the user chose', () => {
    const plain: NodeJS.ProcessEnv = {};
    configureLance(plain, 2);
    expect(plain.LANCE_FTS_NUM_SHARDS).toBe('1');
    const set: NodeJS.ProcessEnv = { LANCE_FTS_NUM_SHARDS: '4' };
    configureLance(set, 2);
    expect(set.LANCE_FTS_NUM_SHARDS).toBe('4');
  });

  it('bounds the postings a build worker holds in memory unless the user chose', () => {
    const plain: NodeJS.ProcessEnv = {};
    configureLance(plain, 2);
    expect(plain.LANCE_FTS_PARTITION_SIZE).toBe(String(FTS_PARTITION_MIB));
    expect(FTS_PARTITION_MIB).toBeLessThan(2048);
    const set: NodeJS.ProcessEnv = { LANCE_FTS_PARTITION_SIZE: '512' };
    configureLance(set, 2);
    expect(set.LANCE_FTS_PARTITION_SIZE).toBe('512');
  });

  it('is set before the store connects (a fresh process that opens a store)', () => {
    const code = `
      const { Store } = await import(${JSON.stringify(new URL('./store.ts', import.meta.url).href)});
      const os = await import('node:os'); const fs = await import('node:fs'); const path = await import('node:path');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-lance-env-'));
      const s = await Store.open(path.join(dir, 'lance'), path.join(dir, 'kbs.json'));
      process.stdout.write(String(process.env.LANCE_CPU_THREADS) + ' ' + String(process.env.LANCE_FTS_NUM_SHARDS) + ' ' + String(process.env.LANCE_FTS_PARTITION_SIZE));
      fs.rmSync(dir, { recursive: true, force: true });`;
    const env = { ...process.env };
    delete env.LANCE_CPU_THREADS;
    delete env.LANCE_FTS_NUM_SHARDS;
    delete env.LANCE_FTS_PARTITION_SIZE;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const [threads, shards, partition] = r.stdout.trim().split(' ');
    expect(Number(threads)).toBeGreaterThanOrEqual(4);
    expect(shards).toBe('1');
    expect(partition).toBe(String(FTS_PARTITION_MIB));
  }, 90_000);
});
