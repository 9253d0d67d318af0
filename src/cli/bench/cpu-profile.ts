import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { round } from './stats.js';

/**
 * A V8 .cpuprofile (what `node --cpu-prof` writes) summarised by self time: where a process spent its main
 * thread, per function and per package (an npm package, a node: module group, a chunk of ragdesk's bundle, or
 * one of V8's own buckets: (garbage collector), (program), (idle)); a native function (no script URL: a binding,
 * a builtin) is charged to the script that called it. Only the main JavaScript thread is sampled:
 * work LanceDB does on its own native threads shows up there as (idle) while the thread awaits it.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  /** Microseconds, on the same monotonic clock as process.hrtime (CLOCK_MONOTONIC on Linux). */
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileRow {
  name: string;
  self_ms: number;
  /** Share of the busy (non-idle) time in the window. */
  pct_busy: number;
}

export interface ProfileSummary {
  /** Whether only the samples inside the requested window were counted. */
  windowed: boolean;
  window_ms: number;
  busy_ms: number;
  idle_ms: number;
  by_function: ProfileRow[];
  by_package: ProfileRow[];
}

const V8_BUCKETS = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** What a script URL belongs to: an npm package, a node: module group, a ragdesk bundle chunk, or its file name. */
export function packageOf(url: string, functionName = ''): string {
  if (!url) return V8_BUCKETS.has(functionName) ? functionName : '(native or builtin)';
  if (url.startsWith('node:')) {
    const parts = url.slice(5).split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : parts[0]}`;
  }
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const bundle = /\/out\/main\/(?:chunks\/)?([^/]+?)(?:-[A-Za-z0-9_-]{8})?\.js$/.exec(file);
  if (bundle) return `ragdesk ${bundle[1]}`;
  return path.basename(file);
}

function functionLabel(node: CpuProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || '(anonymous)';
  if (!url) return name;
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  const short = nm >= 0 ? file.slice(nm + '/node_modules/'.length) : file.startsWith('node:') ? file : path.basename(file);
  return `${name} ${short}:${lineNumber + 1}`;
}

/** Self time per profile node (µs): from samples and their time deltas, inside [fromUs, toUs] when given. */
function selfTimes(profile: CpuProfile, window?: [number, number]): { perNode: Map<number, number>; windowed: boolean } {
  const perNode = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  if (!samples?.length || !timeDeltas || timeDeltas.length !== samples.length) {
    // No sample list: hitCount × the mean sampling interval, over the whole profile.
    const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0);
    const interval = hits ? (profile.endTime - profile.startTime) / hits : 0;
    for (const n of profile.nodes) if (n.hitCount) perNode.set(n.id, n.hitCount * interval);
    return { perNode, windowed: false };
  }
  const inWindow =
    window !== undefined && window[0] < window[1] && window[1] > profile.startTime && window[0] < profile.endTime ? window : undefined;
  let t = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i]!;
    // A sample stands for the time until the next one (the profile's end for the last).
    const next = i + 1 < samples.length ? t + timeDeltas[i + 1]! : profile.endTime;
    const dur = Math.max(0, next - t);
    if (inWindow && (t < inWindow[0] || t > inWindow[1])) continue;
    perNode.set(samples[i]!, (perNode.get(samples[i]!) ?? 0) + dur);
  }
  return { perNode, windowed: inWindow !== undefined };
}

/** Top `top` functions and packages by self time, in ms and as a share of the busy time. */
export function summariseProfile(profile: CpuProfile, options: { window?: [number, number]; top?: number } = {}): ProfileSummary {
  const top = options.top ?? 15;
  const { perNode, windowed } = selfTimes(profile, options.window);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The nearest caller with a script URL: where a native function (no URL of its own) was called from. */
  const scriptCaller = (id: number): CpuProfileNode | undefined => {
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) if (byId.get(p)?.callFrame.url) return byId.get(p);
    return undefined;
  };
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, us] of perNode) {
    const node = byId.get(id);
    if (!node) continue;
    total += us;
    if (node.callFrame.functionName === '(idle)' && !node.callFrame.url) {
      idle += us;
      continue;
    }
    // A native function is charged to the package that called it ('@lancedb/lancedb (native)').
    const caller = !node.callFrame.url && !V8_BUCKETS.has(node.callFrame.functionName) ? scriptCaller(id) : undefined;
    const fn = caller ? `${node.callFrame.functionName || '(anonymous)'} ← ${functionLabel(caller)}` : functionLabel(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const pkg = caller ? `${packageOf(caller.callFrame.url)} (native)` : packageOf(node.callFrame.url, node.callFrame.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const busy = total - idle;
  const rows = (m: Map<string, number>): ProfileRow[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, self_ms: round(us / 1000, 1), pct_busy: busy > 0 ? round((100 * us) / busy, 1) : 0 }));
  return {
    windowed,
    window_ms: round(total / 1000, 1),
    busy_ms: round(busy / 1000, 1),
    idle_ms: round(idle / 1000, 1),
    by_function: rows(byFunction),
    by_package: rows(byPackage),
  };
}

/** The one .cpuprofile a `node --cpu-prof --cpu-prof-dir=dir` process wrote on exit (waits up to 5 s for it). */
export async function readProfileDir(dir: string): Promise<CpuProfile | undefined> {
  for (let i = 0; i < 50; i++) {
    const file = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : undefined;
    if (file) return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/** Run `fn` under this process's own V8 sampling profiler (the inspector), and return its profile. */
export async function profileInProcess<T>(fn: () => Promise<T>): Promise<{ value: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 250 });
    await session.post('Profiler.start');
    let value: T | undefined;
    let failure: { error: unknown } | undefined;
    try {
      value = await fn();
    } catch (error) {
      failure = { error };
    }
    const { profile } = await session.post('Profiler.stop');
    if (failure) throw failure.error;
    return { value: value as T, profile: profile as unknown as CpuProfile };
  } finally {
    session.disconnect();
  }
}
