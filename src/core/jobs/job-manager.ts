import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Job, ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { CoreContext } from '../services/context.js';
import { JobHandle, type JobHeader } from './journal.js';
import { runJob, type RunEnv } from './runner.js';

/** Finished jobs kept (journals on disk and summaries in memory); older ones are removed. */
const KEEP_FINISHED = 50;

/**
 * Ingestion jobs of a data dir, persisted as journals in `<data>/jobs`. Unfinished journals found at start are
 * `interrupted`: whoever owns them (the source they sync, or a plain file job) resumes them.
 */
export class JobManager {
  private readonly jobs = new Map<string, JobHandle>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(readonly dir: string) {
    if (!fs.existsSync(dir)) return;
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const file = path.join(dir, name);
      try {
        const job = JobHandle.load(file);
        if (!job) fs.rmSync(file, { force: true });
        else {
          if (job.finished) job.compact();
          this.jobs.set(job.id, job);
        }
      } catch {
        // An unreadable journal is left alone for a person to look at.
      }
    }
    this.prune();
  }

  create(init: Omit<JobHeader, 't' | 'job_id' | 'created_at'>): JobHandle {
    fs.mkdirSync(this.dir, { recursive: true });
    const now = new Date();
    const id = `job-${now.getTime().toString(36)}-${crypto.randomBytes(3).toString('hex')}`;
    const job = JobHandle.create(path.join(this.dir, `${id}.jsonl`), { ...init, t: 'job', job_id: id, created_at: now.toISOString() });
    this.jobs.set(id, job);
    return job;
  }

  get(id: string): JobHandle {
    const job = this.jobs.get(id);
    if (!job) throw new RagError('invalid_parameter', `no job "${id}"`, { details: { job_id: id } });
    return job;
  }

  /** Jobs not finished and not running now (interrupted by a crash or quit, or paused), oldest first. */
  unfinished(filter: { kind?: JobHeader['kind']; source_id?: string; kb_id?: string } = {}): JobHandle[] {
    return [...this.jobs.values()]
      .filter((j) => !j.finished && !this.running.has(j.id))
      .filter(
        (j) =>
          (!filter.kind || j.header.kind === filter.kind) &&
          (!filter.source_id || j.header.source_id === filter.source_id) &&
          (!filter.kb_id || j.header.kb_id === filter.kb_id),
      )
      .sort((a, b) => a.header.created_at.localeCompare(b.header.created_at));
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Run or resume a job; resolves when it stops (finished, paused, cancelled or closing). */
  async run(ctx: CoreContext, job: JobHandle, env: RunEnv): Promise<void> {
    if (this.running.has(job.id)) return this.running.get(job.id);
    job.begin(job.done.size > 0 || job.state === 'interrupted' || job.state === 'paused');
    const run = runJob(ctx, job, env).finally(() => {
      this.running.delete(job.id);
      if (job.finished) {
        job.compact();
        this.prune();
      }
    });
    this.running.set(job.id, run);
    return run;
  }

  list(input: ParsedInput<'listJobs'>, readable?: ReadonlySet<string>): { jobs: Job[] } {
    const jobs = [...this.jobs.values()]
      .filter(
        (j) =>
          (!readable || readable.has(j.header.kb_id)) && (!input.kb_id || j.header.kb_id === input.kb_id) && (!input.active || !j.finished),
      )
      .sort((a, b) => b.header.created_at.localeCompare(a.header.created_at))
      .slice(0, input.limit);
    return { jobs: jobs.map((j) => j.toJob()) };
  }

  /** Stop a job for good: a running one after its current batch. What it wrote stays. */
  async cancel(id: string): Promise<Job> {
    const job = this.get(id);
    if (job.finished) return job.toJob();
    const run = this.running.get(id);
    if (run) {
      job.stop = 'cancel';
      await run.catch(() => undefined);
    }
    if (!job.finished) job.end('cancelled');
    return job.toJob();
  }

  /** Drop the jobs of a KB being deleted (running ones are cancelled first). */
  async dropKb(kbId: string): Promise<void> {
    for (const job of [...this.jobs.values()].filter((j) => j.header.kb_id === kbId)) {
      if (!job.finished) await this.cancel(job.id);
      this.jobs.delete(job.id);
      fs.rmSync(job.file, { force: true });
    }
  }

  /** Stop running jobs after their current batch; they stay unfinished and resume at the next start. */
  async close(): Promise<void> {
    for (const id of this.running.keys()) {
      const job = this.jobs.get(id);
      if (job && !job.stop) job.stop = 'close';
    }
    await Promise.all([...this.running.values()].map((r) => r.catch(() => undefined)));
  }

  private prune(): void {
    const finished = [...this.jobs.values()]
      .filter((j) => j.finished)
      .sort((a, b) => b.header.created_at.localeCompare(a.header.created_at));
    for (const job of finished.slice(KEEP_FINISHED)) {
      this.jobs.delete(job.id);
      fs.rmSync(job.file, { force: true });
    }
  }
}
