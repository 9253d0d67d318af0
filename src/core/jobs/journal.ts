import fs from 'node:fs';
import type { ChunkingOverride, Job, JobState } from '../../shared/contract/index.js';
import type { ErrorEnvelope } from '../../shared/errors.js';
import type { FileRecord } from '../health/ledger.js';
import { SettledItems } from './settled-items.js';

/** One file of a job: index it (add or re-index) or delete its document. */
export interface JobItem {
  /** Ledger key: path relative to the source folder, or the absolute path for files added directly. */
  key: string;
  /** Absolute path. */
  file: string;
  doc_id: string;
  /** The document's `source` field. */
  source: string;
  action: 'index' | 'delete';
  bytes: number;
}

export interface JobOptions {
  overwrite: boolean;
  /** Re-read and re-parse files even when their bytes hash is unchanged. */
  force: boolean;
  chunking?: ChunkingOverride;
  /**
   * A folder source that does not follow links: its real path. Each file is read only if its real path is still
   * `<within>/<key>` (no link was put in its place since the scan).
   */
  within?: string;
}

export interface JobHeader {
  t: 'job';
  job_id: string;
  kind: 'sync' | 'files';
  kb_id: string;
  source_id: string | null;
  created_at: string;
  options: JobOptions;
  items: JobItem[];
}

export type Outcome = 'added' | 'updated' | 'unchanged' | 'skipped' | 'failed' | 'deleted';

/** A settled item. `record` is the file's new ledger entry (null: the file is gone and its entry dropped). */
export interface ItemLine {
  t: 'item';
  i: number;
  outcome: Outcome;
  chunks: number;
  record: FileRecord | null;
  /** Why a failed file failed, as the error it raised. */
  error?: ErrorEnvelope;
}

interface ResumeLine {
  t: 'resume';
  at: string;
}

interface EndLine {
  t: 'end';
  state: 'done' | 'failed' | 'cancelled';
  at: string;
  error?: string;
}

type Line = JobHeader | ItemLine | ResumeLine | EndLine;

/**
 * A job and its journal: `<data>/jobs/<job_id>.jsonl`, a header (the files) then one line per settled file,
 * appended as files are written to the KB. A job without an `end` line was interrupted; the next start resumes it
 * with the files not yet settled. A torn last line (the process died mid-write) is ignored.
 */
export class JobHandle {
  /** Which items are settled, with their outcome and chunks (see SettledItems). */
  readonly done: SettledItems;
  /**
   * The lines read from the journal when it was loaded: the ledger entries a resumed run applies first
   * (takeReplay). Lines settled since are not kept: their records live in the ledger.
   */
  private replay: ItemLine[] = [];
  state: JobState;
  resumed = 0;
  error: string | null = null;
  finishedAt: string | null = null;
  updatedAt: string;
  current: string | null = null;
  /** OCR of the scan being read now (its ledger key): pages read, and to read (null when none is). */
  ocr: { file: string; done: number; total: number } | null = null;
  /** A large file being written section by section (its ledger key): bytes read, chunks written (null when none). */
  stream: { file: string; bytes: number; total_bytes: number; chunks: number } | null = null;
  private stopReason: 'pause' | 'cancel' | 'close' | null = null;
  private stopper = new AbortController();
  private runStart = 0;
  private runBytes = 0;
  private summary?: Job['progress'];

  constructor(
    readonly file: string,
    readonly header: JobHeader,
  ) {
    this.state = 'running';
    this.updatedAt = header.created_at;
    this.done = new SettledItems(header.items);
  }

  static create(file: string, header: JobHeader): JobHandle {
    fs.writeFileSync(file, `${JSON.stringify(header)}\n`);
    return new JobHandle(file, header);
  }

  /** Read a journal; undefined when it is unreadable (no header). */
  static load(file: string): JobHandle | undefined {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    let job: JobHandle | undefined;
    let ended = false;
    for (const text of lines) {
      if (!text.trim()) continue;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        continue; // torn write
      }
      if (line.t === 'job') job = new JobHandle(file, line);
      else if (!job) return undefined;
      else if (line.t === 'item') {
        if (job.done.set(line.i, line.outcome, line.chunks)) job.replay.push(line);
      } else if (line.t === 'resume') job.resumed++;
      else if (line.t === 'end') {
        ended = true;
        job.state = line.state;
        job.finishedAt = line.at;
        job.updatedAt = line.at;
        job.error = line.error ?? null;
      }
    }
    if (job && !ended) job.state = 'interrupted';
    return job;
  }

  get id(): string {
    return this.header.job_id;
  }

  /** Set to stop the run after the current batch; work inside one file (OCR of a long scan) stops at its next page. */
  get stop(): 'pause' | 'cancel' | 'close' | null {
    return this.stopReason;
  }

  set stop(reason: 'pause' | 'cancel' | 'close' | null) {
    this.stopReason = reason;
    if (reason) this.stopper.abort();
    else if (this.stopper.signal.aborted) this.stopper = new AbortController();
  }

  /** Aborts when the job is asked to stop. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  get finished(): boolean {
    return this.state === 'done' || this.state === 'failed' || this.state === 'cancelled';
  }

  /** Indexes of the items not settled yet, in order. */
  pending(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.header.items.length; i++) if (!this.done.has(i)) out.push(i);
    return out;
  }

  /** The lines loaded from the journal (to re-apply to the ledger), once: later calls get none. */
  takeReplay(): ItemLine[] {
    const lines = this.replay;
    this.replay = [];
    return lines;
  }

  /** Mark the start of a run (first or resumed). */
  begin(resuming: boolean): void {
    if (resuming) {
      this.resumed++;
      fs.appendFileSync(this.file, `${JSON.stringify({ t: 'resume', at: new Date().toISOString() } satisfies ResumeLine)}\n`);
    }
    this.state = 'running';
    this.stop = null;
    this.runStart = Date.now();
    this.runBytes = 0;
  }

  /** Record settled items (one append for a batch). */
  settle(lines: ItemLine[]): void {
    if (lines.length === 0) return;
    fs.appendFileSync(this.file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    for (const l of lines) {
      this.done.set(l.i, l.outcome, l.chunks);
      this.runBytes += this.header.items[l.i]?.bytes ?? 0;
    }
    this.updatedAt = new Date().toISOString();
  }

  end(state: EndLine['state'], error?: string): void {
    const at = new Date().toISOString();
    fs.appendFileSync(this.file, `${JSON.stringify({ t: 'end', state, at, ...(error ? { error } : {}) } satisfies EndLine)}\n`);
    this.state = state;
    this.finishedAt = at;
    this.updatedAt = at;
    this.error = error ?? null;
    this.current = null;
  }

  /** Free the file list of a finished job (its progress is kept). */
  compact(): void {
    this.summary = this.progress();
    this.done.clear();
    this.replay = [];
    this.header.items = [];
  }

  progress(): Job['progress'] {
    if (this.summary) return this.summary;
    const { bytesTotal, failed } = this.done;
    let { bytesDone, chunks } = this.done;
    const streaming = this.stream && !this.finished ? this.stream : null;
    if (streaming) {
      bytesDone += streaming.bytes;
      chunks += streaming.chunks;
    }
    const end = this.finishedAt ? Date.parse(this.finishedAt) : Date.now();
    const ranFor = Date.now() - this.runStart;
    const left = bytesTotal - bytesDone;
    const eta = this.state !== 'running' || this.runBytes === 0 || ranFor <= 0 ? null : Math.round((left / this.runBytes) * ranFor);
    return {
      files_total: this.header.items.length,
      files_done: this.done.size,
      files_failed: failed,
      chunks,
      bytes_total: bytesTotal,
      bytes_done: bytesDone,
      elapsed_ms: Math.max(0, end - Date.parse(this.header.created_at)),
      eta_ms: eta,
      current: this.current,
      ...(this.ocr && !this.finished ? { current_ocr: this.ocr } : {}),
      ...(streaming ? { current_stream: streaming } : {}),
    };
  }

  toJob(stateOverride?: JobState): Job {
    return {
      job_id: this.id,
      kind: this.header.kind,
      kb_id: this.header.kb_id,
      source_id: this.header.source_id,
      state: stateOverride ?? this.state,
      created_at: this.header.created_at,
      updated_at: this.updatedAt,
      finished_at: this.finishedAt,
      resumed: this.resumed,
      progress: this.progress(),
      error: this.error,
    };
  }
}
