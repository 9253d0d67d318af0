/**
 * The parse worker (worker_threads), spawned by ParsePool: runs named tasks on untrusted bytes under the pool's
 * memory and time limits (task-loop.ts serves them). Add a task by adding a handler to TASK_HANDLERS (OCR: a
 * per-page handler that calls `ctx.progress` after each page and stops when `ctx.signal` aborts). Bundled builds
 * emit it as `out/main/parse-worker.js`; under vitest/tsx it runs from this .ts file.
 */
import { threadId } from 'node:worker_threads';
import { RagError } from '../../../shared/errors.js';
import type { OcrPageTask } from '../../ocr/page-task.js';
import { packParsed, parseWithParser, type ParseTaskPayload } from '../registry.js';
import { packSection, parseSection, type SectionTask } from '../stream/section-task.js';
import { serveTasks, type TaskHandler } from './task-loop.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const TASK_HANDLERS: Record<string, TaskHandler> = {
  parse: async (payload: ParseTaskPayload) => packParsed(await parseWithParser(payload)),
  // One section of a large text or Markdown file (stream/section-task.ts).
  section: async (payload: SectionTask) => packSection(parseSection(payload)),
  // One OCR page (src/core/ocr/page-task.ts): a scan is read page by page, each page a task of its own. Loaded on
  // the first page: its canvas (a native module) took ~140 ms of every worker's start, and most never read a scan.
  'ocr-page': async (payload: OcrPageTask, ctx) => (await import('../../ocr/page-task.js')).runOcrPageTask(payload, ctx.signal),
  // Self-tests of the pool's limits (parse-pool.test.ts): a stuck parser, a greedy one, one that reports progress.
  'selftest:spin': async (payload: { ms: number }) => {
    const end = Date.now() + payload.ms;
    while (Date.now() < end) {
      /* a parser stuck in a loop */
    }
    return 'spun';
  },
  // Which worker ran it: the pool's replacement of workers is seen by their thread ids.
  'selftest:thread': async () => threadId,
  'selftest:oom': async () => {
    const hold: string[][] = [];
    for (;;) hold.push(Array.from({ length: 100_000 }, (_, i) => `${i} `.repeat(4)));
  },
  'selftest:progress': async (payload: { steps: number; ms: number }, ctx) => {
    for (let i = 1; i <= payload.steps; i++) {
      if (ctx.signal.aborted) throw new RagError('internal', 'cancelled', { details: { cancelled: true } });
      await sleep(payload.ms);
      ctx.progress({ done: i, total: payload.steps });
    }
    return payload.steps;
  },
  'selftest:crash': async () => {
    setImmediate(() => {
      throw new Error('parse worker crash requested');
    });
    return sleep(60_000);
  },
};

serveTasks('parse-worker', TASK_HANDLERS);
