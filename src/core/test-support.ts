import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { afterEach } from 'vitest';
import type { ModelChange } from '../shared/contract/index.js';
import { Core, type OpenCoreOptions } from './core.js';
import { buildFixtureModel, buildFixtureReranker } from './embed/fixture-model.js';
import { plainChunkRow, type ChunkRow } from './store/chunk-rows.js';
import { collectGarbage } from './util/collect-garbage.js';

/** Helpers for integration tests: a real Core on a temp data dir with the tiny fixture models. */

const HERE = path.dirname(new URL(import.meta.url).pathname);
export const FIXTURES = path.resolve(HERE, 'parse', '__fixtures__');
const SAMPLE_KB = path.resolve(HERE, '..', '..', 'rag_data');
/** The small trained model beside the project (benchmarks, evaluation); tests use it only when it is there. */
export const POTION_DIR = process.env.RAGDESK_POTION_DIR ?? path.resolve(HERE, '..', '..', '..', 'shared', 'models', 'potion-base-4M-int8');

/** Model folders whose tokenizers tests compare on: the fixture model's, and potion's when present. */
export async function tokenizerModelDirs(): Promise<string[]> {
  return [(await fixtureModels()).model, ...(fs.existsSync(path.join(POTION_DIR, 'tokenizer.json')) ? [POTION_DIR] : [])];
}

/** A chunk row whose analysed text is its text, as store tests write rows straight to a chunk table. */
export function textRow(docId: string, index: number, text: string, source = 'test'): ChunkRow {
  return plainChunkRow({
    chunk_id: `${docId}#${index}`,
    doc_id: docId,
    version: 'v1',
    chunk_index: index,
    text,
    fts: text,
    title: docId,
    source,
    tokens: 3,
  });
}

export function tempDir(prefix = 'ragdesk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** For a test file: a maker of temp dirs (tempDir with `prefix`), each removed after the test that made it. */
export function tempDirsPerTest(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}

let builtModels: Promise<{ model: string; reranker: string }> | undefined;

/** Build the fixture embedding and rerank models once per test process. */
export function fixtureModels(): Promise<{ model: string; reranker: string }> {
  builtModels ??= (async () => {
    const dir = tempDir('ragdesk-fixture-models-');
    const model = await buildFixtureModel(path.join(dir, 'fixture-embed'));
    const reranker = await buildFixtureReranker(path.join(dir, 'fixture-rerank'));
    return { model: model.dir, reranker: reranker.dir };
  })();
  return builtModels;
}

export async function openTestCore(options: Partial<OpenCoreOptions> = {}): Promise<Core> {
  return Core.open({ dataDir: tempDir(), allowDownload: false, ...options });
}

/** The error code a promise rejects with ('no error' when it resolves): for asserting stable codes. */
export async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: string }).code ?? 'none';
  }
  return 'no error';
}

/** Poll until `check` passes (watchers and background jobs are asynchronous); fails with the last assertion after `ms`. */
export async function eventually(check: () => Promise<void>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Poll a KB's model change until `test` holds (every 20 ms, up to `timeoutMs`); resolves with that status. */
export async function untilModelChange(
  core: Core,
  kbId: string,
  test: (m: ModelChange) => boolean,
  timeoutMs = 60_000,
): Promise<ModelChange> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { migration } = await core.client.modelChangeStatus({ kb_id: kbId });
    if (migration && test(migration)) return migration;
    if (Date.now() > end) throw new Error(`timed out; last status ${JSON.stringify(migration)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A model change that ended, one way or the other. */
export const modelChangeFinished = (m: ModelChange): boolean => m.state === 'done' || m.state === 'failed' || m.state === 'cancelled';

let haveSameMap: ((a: object, b: object) => boolean) | undefined;

/**
 * Whether two objects share V8's hidden class (`%HaveSameMap`; natives syntax is turned on for this process the
 * first time it is asked). Objects kept by the thousand, or read in a hot loop, should: see store/chunk-rows.ts.
 */
export function sameHiddenClass(a: object, b: object): boolean {
  if (!haveSameMap) {
    v8.setFlagsFromString('--allow-natives-syntax');
    haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  }
  return haveSameMap(a, b);
}

/**
 * Heap bytes still used, after a full collection, once `use` has read `count` sections of ~1 MB each (Russian text,
 * two bytes a character, one word in each no other section has) and the sections are dropped. What `use` keeps that
 * is cut out of a section (a cache key, say) must not keep the section alive: that shows as ~1 MB per section.
 */
export function heapHeldAfterReading(use: (section: string) => unknown, count = 40): number {
  collectGarbage();
  const before = v8.getHeapStatistics().used_heap_size;
  for (let i = 0; i < count; i++) {
    const filler = 'таможенное оформление товаров '.repeat(17_000);
    use(`${filler}декларированиеимпорта${i} ${filler}`);
  }
  collectGarbage();
  return v8.getHeapStatistics().used_heap_size - before;
}

/**
 * The distinct whitespace-separated words of the sample KB (English, Russian, Chinese, Markdown punctuation), with
 * their letter-and-digit runs, plus edge cases (long, unknown, digits, case, added tokens, every ASCII symbol).
 */
export function sampleWords(): string[] {
  const dir = SAMPLE_KB;
  const found = new Set(['a', 'Z', '0', 'ragdesk190', 'x'.repeat(100), 'x'.repeat(101), 'qqqqzzzxv', 'ABCdef123GHI', 'EN71']);
  for (const w of ['[CLS]', 'a[SEP]b', '[cls]', '[PAD]x', '[MASK]', 'x'.repeat(101) + '!', `${'x'.repeat(101)}-${'y'.repeat(3)}`])
    found.add(w);
  for (let c = 0x21; c < 0x7f; c++) found.add(`${String.fromCharCode(c)}ab${String.fromCharCode(c)}1`);
  for (const name of fs.readdirSync(dir).filter((f) => /\.(md|txt|html)$/.test(f))) {
    for (const w of fs.readFileSync(path.join(dir, name), 'utf8').split(/\s+/)) {
      if (!w) continue;
      found.add(w);
      for (const part of w.split(/[^A-Za-z0-9]+/)) if (part) found.add(part);
    }
  }
  return [...found];
}

/**
 * Paragraphs of the sample KB (en/ru/zh, Markdown, HTML, text) and texts that take every branch of a tokenizer's
 * shortcuts: whitespace of each kind, characters clean_text drops, CJK, added tokens, case and accents, long words.
 */
export function tokenizerTexts(): string[] {
  const out = [
    '',
    ' ',
    '\n\t ',
    'plain text, nothing special',
    'tab\tand\nnew line\r\nand\u00a0no-break\u3000ideographic\u2028line\u2029paragraph\u202fnarrow\u205fmath spaces',
    'control \x0b vertical tab, \x0c form feed, \x85 next line, \x7f delete, \0 nul',
    'format \u200b zero width, \u200e mark, a\ufeffb bom; private \ue000; replacement \ufffd',
    'lone \ud800 surrogate, pair 😀 and 𠀀 (Han outside the BMP)',
    '海关清关 and 中文 mixed with English, 丽 compatibility ideograph, 海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关海关清关',
    '[CLS] added [SEP] tokens [PAD][UNK][MASK] and [brackets] without them',
    '[cls] lower-case [sep] x[CLS]y',
    'ΟΔΟΣ ΟΔΟΣ. Σ σ ς İstanbul Straße café—naïve e\u0301 \u0301 alone',
    `${'z'.repeat(120)} ${'longword'.repeat(20)} ${'x1-'.repeat(60)}`,
    'word '.repeat(700),
  ];
  for (const f of fs.readdirSync(SAMPLE_KB).filter((n) => /\.(md|txt|html)$/.test(n))) {
    out.push(...fs.readFileSync(path.join(SAMPLE_KB, f), 'utf8').split(/\n(?=\S)/));
  }
  return out;
}

/**
 * A real zombie (Linux): a `sleep 0.3` exits and its parent, a shell that became `sleep 30` meanwhile, never reaps it,
 * as an orphan's new parent that does not wait() (init in some containers, a CI runner's subreaper) never does. The
 * child outlives the shell's exec: a `sleep 0` could exit first, and under load the shell reaped it before its exec
 * (seen in CI: the pid was gone, not a zombie). Kill `parent` when done.
 */
export async function zombieProcess(): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
  await eventually(async () => {
    if (!/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'latin1'))) throw new Error(`pid ${pid} is not a zombie yet`);
  }, 5_000);
  return { pid, parent };
}

/**
 * Seeded random unit vectors (a linear congruential generator): the same rows in every run. `unit()` is uniform on
 * the sphere's cube; `unit(centre)` scatters about a centre, as embeddings of one topic do.
 */
export function seededVectors(dim: number, seed: number): { rand: () => number; unit: (centre?: number[]) => Float32Array } {
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const unit = (centre?: number[]) => {
    const v = centre ? centre.map((c) => c + 0.6 * rand()) : Array.from({ length: dim }, rand);
    const n = Math.hypot(...v);
    return Float32Array.from(v, (x) => x / n);
  };
  return { rand, unit };
}
