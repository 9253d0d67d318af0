import { resolveWorkerScript, workerScriptCandidates } from '../../embed/worker-path.js';

/** The parse worker's candidates, next to this module or the chunk it was bundled into (embed/worker-path.ts). */
export function parseWorkerCandidates(from: string | URL = import.meta.url): string[] {
  return workerScriptCandidates('parse-worker', from);
}

export function resolveParseWorkerPath(from: string | URL = import.meta.url): string {
  return resolveWorkerScript('parse-worker', from, 'the parse worker script');
}
