import { coveredScripts } from '../health/classify.js';
import type { FileLedger } from '../health/ledger.js';
import type { CoreContext } from '../services/context.js';
import { passageText } from '../embed/passage.js';
import { commitDocuments, tryEmbedder } from '../services/ingest.js';
import { bulkWriting } from '../services/indexing.js';
import { deleteDocs } from './delete-docs.js';
import { examine, type Examined, type ExamineEnv, type Pending } from './examine.js';
import { ReadAhead } from './read-ahead.js';
import { failed, settleResult } from './settle-result.js';
import type { ItemLine, JobHandle, JobItem } from './journal.js';
import { offerVectors } from '../services/vector-reuse.js';

export interface RunEnv {
  ledger: FileLedger;
  /** Folder sync: the KB mirrors the folder, so a file that vanished or lost its text loses its document. */
  mirror: boolean;
  /** Documents per write (one LanceDB commit each); smaller batches settle sooner, larger ones write faster. */
  groupSize?: number;
  onProgress?: (job: JobHandle) => void;
  /** doc_id → content hash of the documents the job may touch, when the caller already has it (see knownDocs). */
  docs?: Map<string, string>;
  /** Called with each batch of settled files, right after it is journaled. */
  onSettle?: (lines: readonly ItemLine[], items: readonly JobItem[]) => void;
}

const GROUP_SIZE = 64;
/** Chunks per write at most (a batch is written once it holds GROUP_SIZE documents or this many chunks). */
export const GROUP_CHUNKS = 2048;
/** Settled-without-writing lines are journaled at least this often. */
const BUFFER_LINES = 256;
/** At most this many vectors of deleted documents are kept for reuse by a job. */
const REUSE_CHUNKS = 50_000;
/** Scans read by OCR at once in one job (each page a parse-pool task); the next one waits for a free place. */
const OCR_IN_FLIGHT = 3;
/**
 * Batches under way while the loop parses and chunks the next files: one embedding (the embedding worker) while
 * the one before it is written (LanceDB's threads, then the main thread journals it). Batches are settled in order;
 * at most IN_FLIGHT + 1 groups are held in memory (the one being gathered).
 */
const IN_FLIGHT = 2;

/** What one write settles: the documents to embed and write, lines settled without writing, deletions. */
interface Batch {
  docs: Array<{ i: number; p: Pending }>;
  lines: ItemLine[];
  deletes: number[];
  stale: string[];
}

/**
 * doc_id → content hash for the given documents (those that exist): one query each 500 ids, or one scan of the
 * KB's documents when there are many (keeping only those).
 */
export async function knownDocs(ctx: CoreContext, kbId: string, ids: Iterable<string>): Promise<Map<string, string>> {
  const list = [...new Set(ids)];
  if (list.length > 2000) {
    const wanted = new Set(list);
    return ctx.store.docs.docHashes(kbId, (id) => wanted.has(id));
  }
  const found = await ctx.store.docs.summaries(kbId, list);
  return new Map([...found].map(([id, d]) => [id, d.content_hash]));
}

function applyLine(ledger: FileLedger, item: JobItem | undefined, line: ItemLine): void {
  if (line.record) ledger.set(line.record);
  else if (item) ledger.delete(item.key);
}

/**
 * Run (or resume) a job: settle every pending file in order, writing documents in batches. Batches are embedded
 * and written while the next files are parsed and chunked (see IN_FLIGHT); each is journaled right after it is
 * written, in order, so a crash loses at most the batches in flight and the files gathered after them, which the
 * next run redoes (content hashes make anything that did get written a no-op). Stops early when `job.stop` is set.
 */
export async function runJob(ctx: CoreContext, job: JobHandle, env: RunEnv): Promise<void> {
  const kbId = job.header.kb_id;
  const items = job.header.items;
  const withdraw: Array<() => void> = [];
  let offered = 0;
  /** Before deleting documents while files remain to index, keep their vectors: a moved file reuses them. */
  const offer = async (docIds: string[]) => {
    if (offered >= REUSE_CHUNKS || !items.some((it, i) => it.action === 'index' && !job.done.has(i))) return;
    const table = await ctx.store.chunks(kbId);
    for (let i = 0; table && i < docIds.length && offered < REUSE_CHUNKS; i += 500) {
      const rows = await table.vectorsOf(docIds.slice(i, i + 500));
      offered += rows.length;
      withdraw.push(
        offerVectors(
          ctx,
          kbId,
          rows.map((r) => [passageText(r.title, r.text), r.vector] as [string, Float32Array]),
        ),
      );
    }
  };
  /** Batches being embedded and written, oldest first (see IN_FLIGHT and flush). */
  const inFlight: Array<Promise<void>> = [];
  // Index upkeep of the KB waits for the job unless the KB is searched meanwhile (indexing.ts, upkeepDue).
  const endBulk = bulkWriting(ctx, kbId);
  try {
    const kb = ctx.store.registry.get(kbId);
    // The KB's model loads in the embedding worker while the first files are read and chunked, not once the first
    // batch asks for it: potion took ~0.8 s to load, and the loop stood still for ~0.5 s of it after two batches.
    const embedder = tryEmbedder(ctx, kb).catch(() => undefined);
    const x: ExamineEnv = {
      ctx,
      kb,
      options: job.header.options,
      sourceId: job.header.source_id,
      docs:
        env.docs ??
        (await knownDocs(
          ctx,
          kbId,
          items.flatMap((it) => {
            const prev = env.ledger.get(it.key);
            return prev?.duplicate_of ? [it.doc_id, prev.duplicate_of] : [it.doc_id];
          }),
        )),
      covered: coveredScripts(kb, ctx.models.presets()),
      signal: job.signal,
      background: true,
      onOcrPage: (item, p) => {
        job.ocr = { file: item.key, done: p.done, total: p.total };
        ctx.events.emit('ingest', { kb_id: kbId, file: item.file, doc_id: item.doc_id, stage: 'ocr', page: p.done, pages: p.total });
        env.onProgress?.(job);
      },
      onStream: (item, p) => {
        job.stream = p && { file: item.key, ...p };
        env.onProgress?.(job);
      },
    };
    // A job resumed from its journal: the ledger may not have been saved since those files were settled.
    for (const line of job.takeReplay()) applyLine(env.ledger, items[line.i], line);
    const groupSize = env.groupSize ?? GROUP_SIZE;
    let group: Array<{ i: number; p: Pending }> = [];
    let groupChunks = 0;
    let lines: ItemLine[] = [];
    let deletes: number[] = [];
    let stale: string[] = [];

    /**
     * Embed and write one batch, delete what it retires, then journal it all (`batch.lines` first). Its embedding may
     * run while the batch before it (`before`) is written; it is settled only after that one.
     */
    const write = async (batch: Batch, before: Promise<void> | undefined) => {
      const { docs, lines: settled, deletes: removed, stale: retired } = batch;
      const results = docs.length
        ? await commitDocuments(
            ctx,
            kbId,
            docs.map((g) => g.p.doc),
          )
        : [];
      // A failure of the batch before is thrown where that batch is awaited (drain).
      await before?.catch(() => undefined);
      if (docs.length) {
        docs.forEach(({ i, p }, k) => {
          const { line, stale: isStale } = settleResult(p, results[k], env.mirror);
          if (line.record?.indexed) x.docs.set(p.doc.doc_id, p.doc.hash);
          if (isStale) retired.push(p.doc.doc_id);
          settled.push({ t: 'item', i, ...line });
        });
      }
      const gone = [...retired, ...removed.map((i) => items[i]!.doc_id)].filter((id) => x.docs.has(id));
      if (gone.length) await offer(gone);
      await deleteDocs(ctx, kbId, gone);
      for (const id of gone) x.docs.delete(id);
      for (const i of removed) settled.push({ t: 'item', i, outcome: 'deleted', chunks: 0, record: null });
      job.settle(settled);
      for (const line of settled) applyLine(env.ledger, items[line.i], line);
      env.onSettle?.(settled, items);
      env.onProgress?.(job);
      // Every batch appends a fragment to the documents table, and each batch's duplicate checks read all of them;
      // upkeep, which compacts it, waits for the job: a 50,000-file job's batches took 160 → 470 ms by its end. A
      // compaction that fails is left to upkeep.
      if (docs.length) await ctx.store.docs.compactIfFragmented().catch(() => undefined);
    };

    /** Wait for the oldest batch in flight (all of them: `all`); a failure (a store error) is thrown here. */
    const drain = async (all: boolean) => {
      while (inFlight.length >= (all ? 1 : IN_FLIGHT)) await inFlight.shift();
    };
    /**
     * Hand what is gathered (the group, the lines settled without writing, the deletions) to a write, once fewer
     * than IN_FLIGHT are under way. `wait`: until it is journaled, with every batch before it (deletions must be
     * done before the next file is looked at).
     */
    const flush = async (wait: boolean) => {
      await drain(wait);
      const batch: Batch = { docs: group, lines, deletes, stale };
      group = [];
      groupChunks = 0;
      lines = [];
      deletes = [];
      stale = [];
      const running = write(batch, inFlight[inFlight.length - 1]);
      if (wait) return running;
      // Awaited by a later flush (drain); until then a failure must not count as unhandled.
      running.catch(() => undefined);
      inFlight.push(running);
    };

    /** Scans being read by OCR in the background, while the files after them go on. */
    const reading: Array<{ i: number; item: JobItem; promise: Promise<void>; result?: Examined }> = [];
    const take = (i: number, item: JobItem, seen: Exclude<Examined, { later: Promise<Examined> }>) => {
      if ('interrupted' in seen) {
        // Stopped half-way through its OCR: left unsettled, so a resumed run reads it again.
      } else if ('vanished' in seen) {
        if (env.mirror) deletes.push(i);
        else
          lines.push({
            t: 'item',
            i,
            ...failed(
              {
                file: item.key,
                source_id: x.sourceId,
                doc_id: item.doc_id,
                bytes: 0,
                mtime_ms: 0,
                file_hash: null,
                checked_at: new Date().toISOString(),
              },
              { code: 'invalid_parameter', message: `no such file: ${item.file}` },
              x.docs.has(item.doc_id),
            ),
          });
      } else if ('settled' in seen) {
        lines.push({ t: 'item', i, ...seen.settled });
        if (seen.stale && env.mirror) stale.push(item.doc_id);
      } else {
        group.push({ i, p: seen.pending });
        groupChunks += seen.pending.doc.chunks.length;
      }
    };
    /** Take the scans OCR has finished (all of them, waiting, when `all`). */
    const collect = async (all: boolean) => {
      for (const r of [...reading]) {
        if (all) await r.promise;
        if (!r.result) continue;
        reading.splice(reading.indexOf(r), 1);
        if (job.ocr?.file === r.item.key) job.ocr = null;
        take(r.i, r.item, r.result as Exclude<Examined, { later: Promise<Examined> }>);
      }
    };
    const full = () => group.length >= groupSize || groupChunks >= GROUP_CHUNKS || lines.length + deletes.length >= BUFFER_LINES;

    const pending = job.pending();
    // The next files' bytes are read and parsed while this one is examined (read-ahead.ts).
    const ahead = new ReadAhead(ctx, job.header.options, (key) => env.ledger.get(key)?.file_hash);
    // No embedding model: the parse of the next larger files can have the second core (read-ahead.ts `large`).
    void embedder.then((e) => (ahead.large = !e));
    for (let at = 0; at < pending.length; at++) {
      const i = pending[at]!;
      const item = items[i]!;
      // Indexing paused (the tray's switch): nothing is parsed or written until resume.
      await ctx.pause.wait();
      if (job.stop) break;
      job.current = item.key;
      if (item.action === 'delete') {
        deletes.push(i);
      } else {
        // Deletions go first, so that a renamed file is not taken for a duplicate of its old self.
        if (deletes.length) await flush(true);
        const io = ahead.take(i, item);
        ahead.fill(items, pending, at);
        const seen = await examine(x, item, env.ledger.get(item.key), io);
        if ('later' in seen) {
          const entry: (typeof reading)[number] = { i, item, promise: Promise.resolve() };
          entry.promise = seen.later.then((r) => void (entry.result = r));
          reading.push(entry);
          // At most a few scans at once; the pool interleaves their pages with other files' parsing.
          if (reading.length >= OCR_IN_FLIGHT) await Promise.race(reading.map((r) => r.promise));
        } else take(i, item, seen);
      }
      await collect(false);
      if (full()) await flush(false);
    }
    // What is ready is written now; then the scans still being read.
    await flush(false);
    await collect(true);
    await flush(true);
    env.ledger.save();
    if (job.stop === 'cancel') job.end('cancelled');
    else if (job.stop) job.state = job.stop === 'pause' ? 'paused' : 'interrupted';
    else job.end('done');
  } catch (err) {
    // Batches still in flight (the loop failed, or one before them) are written and journaled before the job ends.
    for (const running of inFlight.splice(0)) await running.catch(() => undefined);
    env.ledger.save();
    job.end('failed', err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    endBulk();
    for (const w of withdraw) w();
    job.current = null;
    env.onProgress?.(job);
  }
}
