import { ParsePool } from '../parse/pool/parse-pool.js';
import { resolveWorkerScript } from '../embed/worker-path.js';
import type { AnalyzeTask } from './analysis-worker.js';
import type { PreparedDoc } from './ingest.js';
import { analyzeChunks } from './ingest-rows.js';

/** Batches of up to this many chunks are analysed on the calling thread: a single note is not worth a round trip. */
export const INLINE_MAX_CHUNKS = 64;
/**
 * Chunks per task at most (a job's batch holds up to 2,048): a large document's texts cross to the worker and back a
 * slice at a time, not all at once. A 4 MB Markdown file (one document, ~11k chunks) peaked at 518-535 MB in one task,
 * 509-521 MB in slices, 484-493 MB analysed on the calling thread (three runs each).
 */
export const TASK_MAX_CHUNKS = 2048;
/**
 * The worker's young generation, MB. Analysis makes short-lived strings: 8 against the pool's 32 kept the peak RSS
 * of an `add` of 20 MB of Markdown 25 MB lower at the same speed.
 */
const YOUNG_GENERATION_MB = 8;

let shared: ParsePool | undefined;
let warned = false;

/**
 * The full-text column of a batch's chunks (ingest-rows.ts analyzeChunks), computed in a worker thread of its own
 * (analysis-worker.ts). On the main thread, which also chunks the next files, takes the embeddings and writes, it
 * was a sixth of the busy time, and a warm `add` of 20 MB of Markdown with potion waited ~0.9 s of ~6.7 s for it. The
 * same strings as analyzeChunks. Small batches stay on the calling thread (INLINE_MAX_CHUNKS); when the worker
 * cannot run (its script missing, a crash) the batch is analysed here, and that is said once on stderr.
 */
export async function analyzeChunksOffThread(docs: PreparedDoc[], pool?: ParsePool): Promise<Map<PreparedDoc, string[]>> {
  let chunks = 0;
  for (const doc of docs) chunks += doc.chunks.length;
  if (chunks <= INLINE_MAX_CHUNKS) return analyzeChunks(docs);
  const { tasks, owners } = analyzeTasks(docs);
  try {
    const use = pool ?? analysisPool();
    const columns = await Promise.all(tasks.map((task) => use.run<string[][]>('analyze', task)));
    const out = new Map<PreparedDoc, string[]>(docs.map((doc) => [doc, []]));
    columns.forEach((parts, t) => parts.forEach((part, k) => out.get(docs[owners[t]![k]!]!)!.push(...part)));
    return out;
  } catch (err) {
    if (!warned) {
      warned = true;
      process.stderr.write(`ragdesk: full-text analysis runs on the main thread: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    return analyzeChunks(docs);
  }
}

/**
 * A batch's chunks as tasks of TASK_MAX_CHUNKS at most, in order (a large document's split over several), and for
 * each task's entries the index of their document.
 */
function analyzeTasks(docs: PreparedDoc[]): { tasks: AnalyzeTask[]; owners: number[][] } {
  const tasks: AnalyzeTask[] = [];
  const owners: number[][] = [];
  let room = 0;
  docs.forEach((doc, d) => {
    for (let at = 0; at < doc.chunks.length;) {
      if (room === 0) {
        tasks.push({ docs: [] });
        owners.push([]);
        room = TASK_MAX_CHUNKS;
      }
      const take = Math.min(room, doc.chunks.length - at);
      tasks[tasks.length - 1]!.docs.push({ title: doc.title, texts: doc.chunks.slice(at, at + take).map((c) => c.text) });
      owners[owners.length - 1]!.push(d);
      at += take;
      room -= take;
    }
  });
  return { tasks, owners };
}

/** A pool of one analysis worker (the process's own is made on the first batch that needs it). */
export function newAnalysisPool(): ParsePool {
  return new ParsePool({
    size: 1,
    maxYoungGenerationMb: YOUNG_GENERATION_MB,
    workerPath: resolveWorkerScript('analysis-worker', import.meta.url),
  });
}

function analysisPool(): ParsePool {
  shared ??= newAnalysisPool();
  return shared;
}

/** Stop the analysis worker if it is idle (Core.close: before the last upkeep, its heap goes). */
export async function releaseAnalysisWorker(): Promise<void> {
  await shared?.releaseIdle();
}
