import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageOf, profileInProcess, readProfileDir, summariseProfile, type CpuProfile } from './cpu-profile.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });

/** root → main → (parse in zod, search in the ragdesk bundle); plus V8's idle and GC buckets. Times in µs. */
const profile: CpuProfile = {
  startTime: 1_000_000,
  endTime: 1_010_000,
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
    { id: 2, callFrame: frame('main', 'file:///app/out/main/cli.js', 9), children: [3, 4] },
    { id: 3, callFrame: frame('parse', 'file:///app/node_modules/zod/v4/core/parse.js', 41), children: [7] },
    { id: 4, callFrame: frame('search', 'file:///app/out/main/chunks/core-C9hGbvfe.js', 99) },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('(garbage collector)') },
    { id: 7, callFrame: frame('JSONParse') },
  ],
  // samples at t = 1,001,000 (zod), 1,003,000 (a native call from zod), 1,004,000 (search), 1,005,000 (idle), 1,009,000 (gc)
  samples: [3, 7, 4, 5, 6],
  timeDeltas: [1000, 2000, 1000, 1000, 4000],
};

describe('summariseProfile', () => {
  it('sums self time per function and per package from the samples, idle apart', () => {
    const s = summariseProfile(profile);
    expect(s.windowed).toBe(false);
    // zod: 2 ms, a native call from zod: 1 ms; search: 1 ms; idle: 4 ms; gc: until the end, 1 ms
    expect(s.idle_ms).toBe(4);
    expect(s.busy_ms).toBe(5);
    expect(s.window_ms).toBe(9);
    expect(s.by_function.slice(0, 2)).toEqual([
      { name: 'parse zod/v4/core/parse.js:42', self_ms: 2, pct_busy: 40 },
      { name: 'JSONParse ← parse zod/v4/core/parse.js:42', self_ms: 1, pct_busy: 20 },
    ]);
    expect(s.by_package).toEqual([
      { name: 'zod', self_ms: 2, pct_busy: 40 },
      { name: 'zod (native)', self_ms: 1, pct_busy: 20 },
      { name: 'ragdesk core', self_ms: 1, pct_busy: 20 },
      { name: '(garbage collector)', self_ms: 1, pct_busy: 20 },
    ]);
  });

  it('counts only the samples inside a window, and the whole profile when the window misses it', () => {
    const s = summariseProfile(profile, { window: [1_003_500, 1_010_000] });
    expect(s.windowed).toBe(true);
    expect(s.by_package.map((r) => r.name)).toEqual(['ragdesk core', '(garbage collector)']);
    expect(s.busy_ms).toBe(2);
    expect(s.idle_ms).toBe(4);
    expect(summariseProfile(profile, { window: [5, 10] }).windowed).toBe(false);
  });

  it('falls back to hit counts without a sample list', () => {
    const nodes = profile.nodes.map((n) => ({ ...n, hitCount: n.id === 3 ? 3 : n.id === 4 ? 1 : 0 }));
    const s = summariseProfile({ nodes, startTime: 0, endTime: 4000 });
    expect(s.by_function.map((r) => [r.name.split(' ')[0], r.self_ms])).toEqual([
      ['parse', 3],
      ['search', 1],
    ]);
  });
});

describe('packageOf', () => {
  it('names npm packages (scoped too), node: groups, ragdesk bundle chunks and V8 buckets', () => {
    expect(packageOf('file:///a/node_modules/@lancedb/lancedb/dist/query.js')).toBe('@lancedb/lancedb');
    expect(packageOf('file:///a/node_modules/x/node_modules/zod/index.js')).toBe('zod');
    expect(packageOf('node:internal/streams/readable')).toBe('node:internal/streams');
    expect(packageOf('node:events')).toBe('node:events');
    expect(packageOf('file:///a/out/main/chunks/search-service-AbC_12-x.js')).toBe('ragdesk search-service');
    expect(packageOf('file:///a/out/main/cli.js')).toBe('ragdesk cli');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(packageOf('', 'JSONParse')).toBe('(native or builtin)');
  });
});

describe('a real profile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-cpuprof-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('puts a busy loop at the top, from node --cpu-prof', async () => {
    const script = path.join(dir, 'spin.mjs');
    fs.writeFileSync(
      script,
      'function spinHere() { let x = 0; for (let i = 0; i < 1e8; i++) x = (x + i * 7) % 1000003; return x; }\nconsole.log(spinHere());\n',
    );
    const run = spawnSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const s = summariseProfile((await readProfileDir(dir))!);
    expect(s.by_function[0]!.name).toBe('spinHere spin.mjs:1');
    expect(s.by_package[0]!.name).toBe('spin.mjs');
  });

  it('puts a busy loop at the top, from the inspector in this process', async () => {
    function spinInProcess(): number {
      let x = 0;
      for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003;
      return x;
    }
    const { value, profile } = await profileInProcess(async () => spinInProcess());
    expect(value).toBeGreaterThanOrEqual(0);
    expect(summariseProfile(profile).by_function[0]!.name).toMatch(/^spinInProcess cpu-profile\.test\.ts:\d+$/);
  });
});
