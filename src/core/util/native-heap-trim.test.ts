import koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import {
  canTrimNativeHeap,
  fixMmapThreshold,
  holdNativeHeapTrim,
  MMAP_THRESHOLD_BYTES,
  nativeTrimEveryMs,
  nativeTrimHolders,
  startNativeHeapTrim,
  trimNativeHeap,
  trimNativeHeapInBackground,
} from './native-heap-trim.js';

const glibc = process.platform === 'linux' && canTrimNativeHeap();
const why = 'malloc_trim is glibc’s: this is not Linux with glibc, or koffi has no binary here';

const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('trimming the C heap', () => {
  // First in this file: the trimmer below fixes the threshold too, and glibc's setting lasts for the process.
  it.skipIf(!glibc)(`serves blocks over the fixed threshold with their own pages, where glibc had raised it (${why})`, () => {
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const free = libc.func('void free(void *ptr)');
    const counts = koffi.struct('mallinfo2_counts', { arena: 'size_t', ordblks: 'size_t', smblks: 'size_t', hblks: 'size_t' });
    const mallinfo2 = libc.func('mallinfo2', koffi.struct('mallinfo2', { head: counts, rest: koffi.array('size_t', 6) }), []);
    const mmapped = () => Number((mallinfo2() as { head: { hblks: number } }).head.hblks);
    // glibc mmaps a block only when no free space in the arena fits it: 3 MiB blocks, both held, do not fit there.
    const size = 3 * 2 ** 20;
    expect(size).toBeGreaterThan(MMAP_THRESHOLD_BYTES);
    // A freed 4 MiB block (mmapped: over the 128 KiB glibc starts at) raises the threshold to 4 MiB.
    free(malloc(4 * 2 ** 20));
    const before = mmapped();
    const inArena = malloc(size);
    expect(mmapped()).toBe(before);
    expect(fixMmapThreshold()).toBe(true);
    const own = malloc(size);
    expect(mmapped()).toBe(before + 1);
    free(own);
    free(inArena);
    expect(mmapped()).toBe(before);
  });

  it.skipIf(!glibc).each([
    ['in this thread', () => Promise.resolve(trimNativeHeap())],
    ['in the thread pool', trimNativeHeapInBackground],
  ])(`gives freed malloc memory back that glibc kept, %s (${why})`, async (_, trim) => {
    // 400,000 blocks of 700 bytes from glibc's malloc, then every one freed but each 64th: the live blocks pin the
    // heap's pages around them, so free() hands nothing back and RSS stays at the high-water mark until a trim.
    const libc = koffi.load('libc.so.6');
    const malloc = libc.func('void *malloc(size_t size)');
    const free = libc.func('void free(void *ptr)');
    const memset = libc.func('void *memset(void *s, int c, size_t n)');
    const blocks: unknown[] = [];
    for (let i = 0; i < 400_000; i++) blocks.push(memset(malloc(700), 1, 700));
    for (let i = 0; i < blocks.length; i++) if (i % 64 !== 0) free(blocks[i]);
    const before = rssMb();
    expect(await trim()).toBe(true);
    const after = rssMb();
    for (let i = 0; i < blocks.length; i += 64) free(blocks[i]);
    // ~270 MB freed between the live blocks: measured here 353 → 108 MB.
    expect(before - after).toBeGreaterThan(150);
  });

  it.skipIf(!glibc)(`trims while the process works and leaves an idle one alone (${why})`, async () => {
    const trimmer = startNativeHeapTrim(40, 20)!;
    try {
      const busyUntil = performance.now() + 300;
      while (performance.now() < busyUntil) Math.sqrt(Math.random());
      await sleep(100);
      const afterWork = trimmer.trims;
      expect(afterWork).toBeGreaterThanOrEqual(1);
      await sleep(300);
      expect(trimmer.trims).toBe(afterWork);
    } finally {
      trimmer.stop();
    }
  });

  it('is off where the period is 0, and the period comes from RAGDESK_NATIVE_TRIM_MS within bounds', () => {
    expect(startNativeHeapTrim(0)).toBeUndefined();
    expect(nativeTrimEveryMs({})).toBe(2_000);
    expect(nativeTrimEveryMs({ RAGDESK_NATIVE_TRIM_MS: '0' })).toBe(0);
    expect(nativeTrimEveryMs({ RAGDESK_NATIVE_TRIM_MS: '500' })).toBe(500);
    expect(nativeTrimEveryMs({ RAGDESK_NATIVE_TRIM_MS: '-1' })).toBe(2_000);
    expect(nativeTrimEveryMs({ RAGDESK_NATIVE_TRIM_MS: 'often' })).toBe(2_000);
  });

  it.skipIf(process.platform !== 'linux')('runs one trimmer per process until its last holder releases it (Linux only)', () => {
    const a = holdNativeHeapTrim();
    const b = holdNativeHeapTrim();
    expect(nativeTrimHolders()).toBe(2);
    a();
    a();
    expect(nativeTrimHolders()).toBe(1);
    b();
    expect(nativeTrimHolders()).toBe(0);
  });
});
