import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RagError, type ErrorCode } from '../../shared/errors.js';

/**
 * Where a worker script `name` is, relative to the module that asks (the module that starts the worker, or the
 * bundle chunk it was bundled into): the embedding worker, the parse and analysis workers (their pools):
 * - `./<name>.js`: a bundle entry (`out/main/index.js`, `out/main/cli.js`) next to the emitted worker
 *   `out/main/<name>.js`, or a plain tsc build of src/;
 * - `../<name>.js`: that code inlined into a shared chunk under `out/main/chunks/`;
 * - `./<name>.ts`: running from the TypeScript sources (vitest, tsx).
 */
export function workerScriptCandidates(name: string, from: string | URL): string[] {
  const here = path.dirname(typeof from === 'string' && !from.startsWith('file:') ? from : fileURLToPath(from));
  return [path.join(here, `${name}.js`), path.join(here, '..', `${name}.js`), path.join(here, `${name}.ts`)];
}

/** The first existing candidate (workerScriptCandidates); a RagError with `code`, naming `what`, when none exists. */
export function resolveWorkerScript(name: string, from: string | URL, what = `the ${name} script`, code: ErrorCode = 'internal'): string {
  const candidates = workerScriptCandidates(name, from);
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new RagError(code, `${what} was not found (looked for ${candidates.join(', ')})`, { details: { candidates } });
  return found;
}

/** The embedding worker's candidates (workerScriptCandidates). The composition root may pass `workerPath` to the manager instead. */
export function embedWorkerCandidates(from: string | URL = import.meta.url): string[] {
  return workerScriptCandidates('embed-worker', from);
}

/** The embedding worker script; RagError('model_unavailable') when it is not there. */
export function resolveEmbedWorkerPath(from: string | URL = import.meta.url): string {
  return resolveWorkerScript('embed-worker', from, 'the embedding worker script', 'model_unavailable');
}

/** File URL of tsx's ESM API (`tsx/esm/api`, import condition), resolved from here; the bare name if that fails. */
function tsxEsmApi(): string {
  try {
    const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports?: Record<string, unknown> };
    const entry = pkg.exports?.['./esm/api'] as { import?: { default?: string } | string } | undefined;
    const rel = typeof entry?.import === 'string' ? entry.import : entry?.import?.default;
    if (rel) return pathToFileURL(path.join(path.dirname(pkgFile), rel)).href;
  } catch {
    // fall through
  }
  return 'tsx/esm/api';
}

export interface WorkerSpawn {
  /** The script, or bootstrap code when `eval` is true. */
  filename: string;
  eval: boolean;
}

/**
 * How to start the worker. Built `.js` runs as it is. TypeScript sources (vitest, tsx) are started through a
 * small bootstrap that registers tsx's ESM loader in the worker and then imports the `.ts` file: a worker's
 * `execArgv: ['--import', 'tsx']` is not applied to the worker's own entry on Node 20 ("Unknown file extension
 * .ts"), while registering the loader from inside the worker works on every supported Node.
 */
export function workerSpawn(workerPath: string): WorkerSpawn {
  if (!/\.[cm]?ts$/.test(workerPath)) return { filename: workerPath, eval: false };
  const api = tsxEsmApi();
  const target = pathToFileURL(workerPath).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(target)}); })
  .catch((err) => { setImmediate(() => { throw err; }); });`;
  return { filename: code, eval: true };
}
