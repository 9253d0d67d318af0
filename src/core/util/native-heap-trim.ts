import { createRequire } from 'node:module';
import type Koffi from 'koffi';
import { envInt } from './env-int.js';

/**
 * Giving the C heap's freed memory back to the system (glibc's `malloc_trim`), called through koffi (an FFI
 * library with prebuilt binaries: no compiler at install).
 *
 * What ingest frees outside V8 (LanceDB's Rust buffers, onnxruntime's tensors, the workers' native allocations)
 * goes back to glibc's per-thread arenas, which keep it: free chunks between live ones are never returned, and
 * RSS stays at the high-water mark of every arena. `malloc_trim(0)` hands the free pages of every arena back
 * (madvise). Measured with `ragdesk add` of the 200 MB Markdown file and potion-base-4M: peak RSS 1,008 → 834 MB
 * with this trimmer, the same time (a trim every 2 s from a preloaded C library: 791 MB; docs/benchmarks.md,
 * "Memory of `ragdesk add`").
 *
 * Linux with glibc only: elsewhere (macOS, Windows, musl) there is no such call, and their allocators return
 * memory differently; `trimNativeHeap` then does nothing and says so.
 */

/** A C function as koffi binds it: called in this thread, or `async` in libuv's thread pool. */
type CFunction = ReturnType<ReturnType<typeof Koffi.load>['func']>;

/** glibc's `malloc_trim` and `mallopt`. */
interface Glibc {
  mallocTrim: CFunction;
  mallopt: CFunction;
}

let loaded: Glibc | null | undefined;

function loadGlibc(): Glibc | null {
  if (process.platform !== 'linux') return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    const libc = koffi.load('libc.so.6');
    return { mallocTrim: libc.func('int malloc_trim(size_t pad)'), mallopt: libc.func('int mallopt(int param, int value)') };
  } catch {
    // No glibc (musl), or koffi has no binary for this platform: nothing to trim with.
    return null;
  }
}

/** Whether this process can trim its C heap (Linux with glibc and koffi's binary). */
export function canTrimNativeHeap(): boolean {
  if (loaded === undefined) loaded = loadGlibc();
  return loaded !== null;
}

/** Return the C heap's free pages to the system now; false where that cannot be done here. */
export function trimNativeHeap(): boolean {
  if (!canTrimNativeHeap()) return false;
  loaded!.mallocTrim(0);
  return true;
}

/**
 * The same in libuv's thread pool, off the event loop: a trim walks every arena, and one that gives back a few
 * hundred MB takes tens of ms (34 ms for 270 MB freed in 400,000 blocks here; ~4 ms to walk it again).
 */
export function trimNativeHeapInBackground(): Promise<boolean> {
  if (!canTrimNativeHeap()) return Promise.resolve(false);
  return new Promise((resolve) => {
    (loaded!.mallocTrim.async as (pad: number, done: (err: unknown) => void) => void)(0, (err) => resolve(!err));
  });
}

/** glibc's `M_MMAP_THRESHOLD` (malloc.h). */
const M_MMAP_THRESHOLD = -3;
/** Allocations of this size or more that no free room in an arena fits get pages of their own (fixMmapThreshold). */
export const MMAP_THRESHOLD_BYTES = 256 * 1024;
let thresholdFixed = false;

/**
 * From now on an allocation of `bytes` or more that no free room in an arena fits gets pages of its own (mmap),
 * handed back to the system by free(), instead of growing the arena. glibc starts at 128 KiB but raises its
 * threshold to the size of every mmapped block freed (up to 32 MiB), so once LanceDB frees one large Arrow buffer,
 * every later buffer under that size is carved out of an arena, and the arena keeps the pages between live blocks:
 * in a folder's `add` glibc held 220 MB free against 70-95 MB in use (mallinfo2), which no `malloc_trim` gives
 * back. A fixed threshold stops the raising (glibc: setting it turns off the dynamic one). Measured with `ragdesk
 * add` and potion-base-4M (docs/benchmarks.md): the bench's 50,000-file folder 807 / 776 → 623 / 635 MB peak (613 at
 * 128 KiB and at 1 MiB), its 200 MB Markdown file 689 / 615 → 519 / 546 MB. Once per process; false where it
 * cannot be done (not glibc).
 */
export function fixMmapThreshold(bytes = MMAP_THRESHOLD_BYTES): boolean {
  if (!canTrimNativeHeap()) return false;
  if (!thresholdFixed) thresholdFixed = loaded!.mallopt(M_MMAP_THRESHOLD, bytes) === 1;
  return thresholdFixed;
}

/** Default period of the trimmer (RAGDESK_NATIVE_TRIM_MS overrides; 0 turns it off). */
export const NATIVE_TRIM_EVERY_MS = 2_000;
/** CPU time the process must have spent since the last check for a trim to be worth it (an idle one allocates little). */
export const NATIVE_TRIM_MIN_CPU_MS = 200;

/** The trimmer's period from the environment: an integer 0–600,000 ms, else the default. */
export function nativeTrimEveryMs(env: NodeJS.ProcessEnv = process.env): number {
  return envInt(env, 'RAGDESK_NATIVE_TRIM_MS', 0, 600_000, NATIVE_TRIM_EVERY_MS);
}

export interface NativeHeapTrimmer {
  /** Trims done so far. */
  readonly trims: number;
  stop(): void;
}

/**
 * Trim the C heap every `everyMs` while the process is busy: a check whose process-wide CPU time (every thread:
 * LanceDB's, onnxruntime's, the workers') since the last one reaches `minCpuMs` trims; an idle process is left
 * alone. The trim runs in libuv's thread pool (one at a time). koffi is loaded at the first such check, off the
 * start-up path (~15 ms), and the mmap threshold is fixed then (fixMmapThreshold); where it cannot trim, the timer
 * stops. The timer never keeps the process alive. Undefined off
 * Linux or when `everyMs` is 0.
 */
export function startNativeHeapTrim(everyMs = nativeTrimEveryMs(), minCpuMs = NATIVE_TRIM_MIN_CPU_MS): NativeHeapTrimmer | undefined {
  if (everyMs <= 0 || process.platform !== 'linux') return undefined;
  let last = process.cpuUsage();
  let trims = 0;
  let running = false;
  const timer = setInterval(() => {
    const spent = process.cpuUsage(last);
    last = process.cpuUsage();
    if (running || (spent.user + spent.system) / 1000 < minCpuMs) return;
    if (!canTrimNativeHeap()) return clearInterval(timer);
    fixMmapThreshold();
    running = true;
    void trimNativeHeapInBackground().then((done) => {
      running = false;
      if (done) trims++;
    });
  }, everyMs);
  timer.unref();
  return {
    get trims() {
      return trims;
    },
    stop: () => clearInterval(timer),
  };
}

let shared: { trimmer: NativeHeapTrimmer; holders: number } | undefined;

/**
 * One trimmer per process, however many engines it opens (a test opens several): the first holder starts it,
 * the last release stops it. Returns the release.
 */
export function holdNativeHeapTrim(): () => void {
  if (!shared) {
    const trimmer = startNativeHeapTrim();
    if (!trimmer) return () => undefined;
    shared = { trimmer, holders: 0 };
  }
  const held = shared;
  held.holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--held.holders === 0) {
      held.trimmer.stop();
      if (shared === held) shared = undefined;
    }
  };
}

/** Engines holding the process's trimmer now (0: it is stopped). */
export function nativeTrimHolders(): number {
  return shared?.holders ?? 0;
}
