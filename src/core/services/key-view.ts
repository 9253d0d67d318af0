import path from 'node:path';
import type { HealthReport, Job, KbStats, KbSummary, ModelChange, ModelStatus, Source } from '../../shared/contract/index.js';
import { isRemoteModel, parseRemoteSpec } from '../embed/remote/remote-spec.js';

/**
 * What an API key may learn about models: their names, never where they live. A remote embedder is shown as
 * `<provider>:<model>` (no endpoint URL, no options), a model folder by its folder name; preset names and hub ids
 * stay as they are. Errors are summarised (they name URLs, hosts and paths).
 */
export function modelNameForKey(model: string): string {
  const m = model.trim();
  if (isRemoteModel(m)) {
    try {
      const spec = parseRemoteSpec(m);
      return `${spec.provider}:${spec.name}`;
    } catch {
      return m.split(/[@?]/)[0] ?? 'remote';
    }
  }
  if (path.isAbsolute(m) || path.win32.isAbsolute(m) || m.startsWith('.') || m.includes('\\'))
    return (
      m
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'model'
    );
  return m;
}

const UNAVAILABLE = 'not available here (the owner can see why in ragdesk status)';

export function modelStatusForKey(s: ModelStatus): ModelStatus {
  return {
    ...s,
    model: modelNameForKey(s.model),
    resolved: modelNameForKey(s.resolved.replace(/@.*$/, '')),
    ...(s.error ? { error: UNAVAILABLE } : {}),
  };
}

function changeForKey(mc: ModelChange | null): ModelChange | null {
  if (!mc) return mc;
  return {
    ...mc,
    from_model: modelNameForKey(mc.from_model),
    to_model: modelNameForKey(mc.to_model),
    error: mc.error ? UNAVAILABLE : null,
  };
}

/** A KB's summary or stats as a key sees it (model names only). */
export function kbForKey<T extends KbSummary | KbStats>(kb: T): T {
  const out = { ...kb, embedding_model: modelNameForKey(kb.embedding_model) };
  if ('migration' in out) out.migration = changeForKey(out.migration);
  return out;
}

/** A folder source as a key sees it: the folder's name, not where it is on this machine; errors summarised. */
export function sourceForKey(s: Source): Source {
  return {
    ...s,
    path:
      s.path
        .replace(/[\\/]+$/, '')
        .split(/[\\/]/)
        .pop() || 'folder',
    last_error: s.last_error ? 'the last sync failed (the owner can see why in ragdesk sources list)' : null,
  };
}

/** A path as a key may see it: a relative one (inside its source folder) as it is, an absolute one by its name. */
export function fileForKey(file: string): string {
  if (!path.isAbsolute(file) && !path.win32.isAbsolute(file)) return file;
  return (
    file
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || 'file'
  );
}

/** The folders of absolute paths (POSIX, Windows drive or UNC) inside a text, which leave their last part behind. */
const ABSOLUTE_DIRS = /(?<![\w.:/\\-])(?:\/(?:[^\s/"'`<>|]+\/)+|[A-Za-z]:\\(?:[^\s\\"'`<>|]+\\)+|\\\\(?:[^\s\\"'`<>|]+\\)+)/g;

/**
 * A message as a key may read it: the folders of this machine cut out, known ones (the data dir, source folders)
 * first, so that a file keeps its name (relative to its source when it is in one) and nothing says where it lives.
 */
export function textForKey(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of [...roots].filter((r) => r.length > 1).sort((a, b) => b.length - a.length)) {
    const trimmed = root.replace(/[\\/]+$/, '');
    out = out.split(`${trimmed}${path.sep}`).join('').split(`${trimmed}/`).join('').split(trimmed).join('');
  }
  return out.replace(ABSOLUTE_DIRS, '');
}

const FILE_ERROR = 'could not be indexed (the owner can see why in ragdesk health)';

/**
 * A KB's health report as a key sees it: files by their path in their source folder (one added directly by its
 * name), the model by its name, messages without this machine's folders; a failure that is not about the file
 * itself (status `error`: internal, busy, model) keeps its code only.
 */
export function healthForKey(report: HealthReport, roots: readonly string[]): HealthReport {
  const model = modelNameForKey(report.embedding_model);
  return {
    ...report,
    embedding_model: model,
    files: report.files.map((f) => {
      const message = f.message.split(report.embedding_model).join(model);
      const code = /^\[([a-z_]+)\]/.exec(message)?.[1];
      return {
        ...f,
        file: fileForKey(f.file),
        message: f.status === 'error' ? `${code ? `[${code}] ` : ''}${FILE_ERROR}` : textForKey(message, roots),
      };
    }),
  };
}

/** An ingestion job as a key sees it: the file being read by its name (or its path in the source), no error text. */
export function jobForKey(job: Job): Job {
  const p = job.progress;
  return {
    ...job,
    progress: {
      ...p,
      current: p.current === null ? null : fileForKey(p.current),
      ...(p.current_ocr ? { current_ocr: { ...p.current_ocr, file: fileForKey(p.current_ocr.file) } } : {}),
      ...(p.current_stream ? { current_stream: { ...p.current_stream, file: fileForKey(p.current_stream.file) } } : {}),
    },
    error: job.error ? 'the job failed (the owner can see why in ragdesk jobs list)' : null,
  };
}
