import path from 'node:path';
import { z } from 'zod';
import { ModelChangeSchema, type ModelChange } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';
import type { CoreContext } from './context.js';

/** A model change as persisted: the public view plus the physical tables it moves between. */
const RecordSchema = ModelChangeSchema.extend({ source_table: z.string(), shadow_table: z.string() });
export type ChangeRecord = z.infer<typeof RecordSchema>;

const FileSchema = z.object({ version: z.literal(1), changes: z.array(RecordSchema) });

/** One KB's change in this process: the record, and the runner when it runs here. */
export interface LiveChange {
  record: ChangeRecord;
  runner?: Promise<void>;
  abort?: AbortController;
  /** Pace of the current run, for the ETA: when it started and how many chunks were done then. */
  pace?: { t0: number; done0: number };
}

/**
 * Model changes of one data dir, persisted in `<data>/model-changes.json` (written atomically after each batch),
 * so a restart finds an interrupted change and resumes it. The latest change per KB is kept, finished or not.
 */
export class ModelChanges {
  readonly live = new Map<string, LiveChange>();
  /** Old chunk tables waiting out a grace period before they are dropped (in-flight searches may still read them). */
  readonly pendingDrops = new Map<string, NodeJS.Timeout>();

  constructor(private readonly file: string) {
    const raw = readJsonFile<unknown>(file, { version: 1, changes: [] });
    const parsed = FileSchema.safeParse(raw);
    if (!parsed.success) throw new RagError('internal', `the model-change file ${file} is unreadable`, { cause: parsed.error });
    for (const record of parsed.data.changes) {
      // Only one process owns the data dir: a change left running or indexing was stopped by a crash or quit.
      if (record.state === 'running' || record.state === 'indexing') record.state = 'interrupted';
      this.live.set(record.kb_id, { record });
    }
  }

  get(kbId: string): LiveChange | undefined {
    return this.live.get(kbId);
  }

  /** Not finished: running here, interrupted or failed (its shadow table exists and belongs to it). */
  active(kbId: string): LiveChange | undefined {
    const c = this.live.get(kbId);
    return c && c.record.state !== 'done' && c.record.state !== 'cancelled' ? c : undefined;
  }

  set(change: LiveChange): void {
    this.live.set(change.record.kb_id, change);
    this.save();
  }

  forget(kbId: string): void {
    if (this.live.delete(kbId)) this.save();
  }

  update(change: LiveChange, patch: Partial<ChangeRecord>): void {
    Object.assign(change.record, patch, { updated_at: new Date().toISOString() });
    this.save();
  }

  save(): void {
    const changes = [...this.live.values()].map((c) => c.record).sort((a, b) => a.kb_id.localeCompare(b.kb_id));
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, changes }, null, 2)}\n`);
  }
}

const perContext = new WeakMap<CoreContext, ModelChanges>();

export function modelChangesOf(ctx: CoreContext): ModelChanges {
  let changes = perContext.get(ctx);
  if (!changes) perContext.set(ctx, (changes = new ModelChanges(path.join(ctx.options.dataDir, 'model-changes.json'))));
  return changes;
}

/** The public view of a change, with an ETA from the pace of the current run. */
export function publicView(change: LiveChange, now = Date.now()): ModelChange {
  const { source_table: _s, shadow_table: _t, ...view } = change.record;
  let eta: number | null = null;
  const p = change.pace;
  if (p && view.state === 'running') {
    const done = view.chunks_done - p.done0;
    const elapsed = now - p.t0;
    if (done > 0 && elapsed > 0) eta = Math.round((Math.max(0, view.chunks_total - view.chunks_done) * elapsed) / done);
  }
  if (view.state === 'indexing') eta = null;
  return { ...view, eta_ms: eta };
}
