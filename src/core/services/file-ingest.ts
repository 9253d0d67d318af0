import fs from 'node:fs/promises';
import path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { ChunkingOverride } from '../../shared/contract/index.js';
import { RagError, toErrorEnvelope, type ErrorEnvelope } from '../../shared/errors.js';
import type { CoreContext } from './context.js';
import { prepareFile } from './document-service.js';
import { commitDocuments, type PreparedDoc } from './ingest.js';

export interface FileTarget {
  /** Absolute path. */
  file: string;
  /** doc_id: path relative to the folder it was found in (posix separators), or the file name. */
  doc_id: string;
}

export interface FileOutcome {
  file: string;
  doc_id: string;
  ok: boolean;
  status?: 'added' | 'updated' | 'skipped';
  chunks?: number;
  reason?: string;
  warnings?: string[];
  error?: ErrorEnvelope;
}

const toPosix = (p: string) => p.split(path.sep).join('/');

/** Expand files, folders (recursively, skipping dot-files) and glob patterns into files, each once. */
export async function expandPaths(inputs: string[], options: { exclude?: string[] } = {}): Promise<FileTarget[]> {
  const out = new Map<string, FileTarget>();
  const ignore = ['**/.*', '**/.*/**', '**/node_modules/**', ...(options.exclude ?? [])];
  for (const input of inputs) {
    if (isDynamicPattern(input)) {
      const base = path.resolve(input.split(/[*?[{]/)[0]!.replace(/[^/\\]*$/, '') || '.');
      for (const f of await glob(input, { absolute: true, onlyFiles: true, ignore })) {
        out.set(f, { file: f, doc_id: toPosix(path.relative(base, f)) });
      }
      continue;
    }
    const abs = path.resolve(input);
    const stat = await fs.stat(abs).catch(() => undefined);
    if (!stat) throw new RagError('invalid_parameter', `no such file or folder: ${input}`);
    if (stat.isDirectory()) {
      const files = await glob('**/*', { cwd: abs, absolute: true, onlyFiles: true, ignore });
      for (const f of files.sort()) out.set(f, { file: f, doc_id: toPosix(path.relative(abs, f)) });
    } else {
      out.set(abs, { file: abs, doc_id: path.basename(abs) });
    }
  }
  return [...out.values()];
}

export interface IngestFilesOptions {
  chunking?: ChunkingOverride;
  overwrite?: boolean;
  /** Called after each file is settled. */
  onFile?: (outcome: FileOutcome, done: number, total: number) => void;
  /** Documents per write (one LanceDB commit each). */
  groupSize?: number;
}

/**
 * Ingest files into a KB: each parsed and chunked, then embedded and written in groups. A bad file never stops
 * the others; every file gets an outcome.
 */
export async function ingestFiles(ctx: CoreContext, kbId: string, targets: FileTarget[], options: IngestFilesOptions = {}): Promise<FileOutcome[]> {
  ctx.store.registry.get(kbId);
  const outcomes: FileOutcome[] = [];
  const groupSize = options.groupSize ?? 256;
  let group: Array<{ target: FileTarget; doc: PreparedDoc }> = [];
  let groupChunks = 0;
  const settle = (o: FileOutcome) => {
    outcomes.push(o);
    options.onFile?.(o, outcomes.length, targets.length);
  };
  const flush = async () => {
    if (group.length === 0) return;
    const batch = group;
    group = [];
    groupChunks = 0;
    const results = await commitDocuments(ctx, kbId, batch.map((g) => g.doc));
    results.forEach((r, i) => {
      const { target } = batch[i]!;
      if (r instanceof RagError) settle({ file: target.file, doc_id: target.doc_id, ok: false, error: toErrorEnvelope(r) });
      else {
        settle({
          file: target.file, doc_id: r.doc_id, ok: true, status: r.status, chunks: r.chunk_count,
          ...(r.skipped_reason ? { reason: r.skipped_reason } : {}), ...(r.warnings ? { warnings: r.warnings } : {}),
        });
      }
    });
  };
  for (const target of targets) {
    try {
      ctx.events.emit('ingest', { kb_id: kbId, file: target.file, doc_id: target.doc_id, stage: 'parse' });
      const data = await fs.readFile(target.file);
      const doc = await prepareFile(ctx, kbId, {
        data, filename: target.file, doc_id: target.doc_id, source: target.file,
        ...(options.chunking ? { chunking: options.chunking } : {}),
      }, options.overwrite ?? false);
      group.push({ target, doc });
      groupChunks += doc.chunks.length;
      if (group.length >= groupSize || groupChunks >= 8192) await flush();
    } catch (err) {
      const error = toErrorEnvelope(err);
      ctx.events.emit('ingest', { kb_id: kbId, file: target.file, stage: 'error', message: error.message });
      settle({ file: target.file, doc_id: target.doc_id, ok: false, error });
    }
  }
  await flush();
  return outcomes;
}
