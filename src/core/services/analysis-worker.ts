/**
 * The full-text analysis worker (worker_threads), run by analysis-pool.ts through a ParsePool: the full-text column
 * of a batch's chunks (text/analyzer.ts), off the thread that chunks the next files and writes. Bundled builds emit
 * it as `out/main/analysis-worker.js`; under vitest/tsx it runs from this .ts file. It loads the analyzer alone, not
 * the parsers (a parse worker's modules took ~20 MB more).
 */
import { serveTasks } from '../parse/pool/task-loop.js';
import { analyzeChunkTexts } from '../text/analyzer.js';

/** One batch: each document's title and chunk texts, in order. */
export interface AnalyzeTask {
  docs: Array<{ title: string; texts: string[] }>;
}

serveTasks('analysis-worker', {
  analyze: async (payload: AnalyzeTask) => payload.docs.map((d) => analyzeChunkTexts(d.title, d.texts)),
});
