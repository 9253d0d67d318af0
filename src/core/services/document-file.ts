import fs from 'node:fs/promises';
import path from 'node:path';
import type { Source } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { FileLedger } from '../health/ledger.js';
import { isInside, joinRel, statNoLinks } from '../util/inside.js';
import type { CoreContext } from './context.js';

/** The per-file records ingestion kept (a source's, or `null` for files added to the KB directly). */
export type LedgerOf = (kbId: string, sourceId: string | null) => FileLedger;

const notAFile = (docId: string, kbId: string, why: string) =>
  new RagError('invalid_parameter', `"${docId}" has no file on this machine to open: ${why}`, { details: { kb_id: kbId, doc_id: docId } });

/**
 * The file on this machine a document came from, so the desktop app can open it with the OS. Only a path the
 * server itself recorded is ever opened, never a caller's `source` (an agent may write anything there, e.g.
 * `/bin/sh` or a UNC path):
 *
 * - the real path ingestion read, stored with the document (`file_path`: files added by path, folder-source files);
 * - for documents stored before that was recorded, the path the ingestion records (health ledgers) name for this
 *   document and marked indexed.
 *
 * The file must still be a regular file at that very path (not replaced by a link), and a folder source's file must
 * still be inside its folder (unless the source follows links). Text added directly and browser uploads have no
 * file: `invalid_parameter`.
 */
export async function documentFile(ctx: CoreContext, sources: Source[], kbId: string, docId: string, ledgerOf?: LedgerOf): Promise<string> {
  ctx.store.registry.get(kbId);
  const recorded = await ctx.store.docs.filePath(kbId, docId);
  if (recorded === undefined)
    throw new RagError('document_not_found', `document "${docId}" not found in "${kbId}"`, { details: { kb_id: kbId, doc_id: docId } });
  const source = sources.find((s) => s.kb_id === kbId && docId.startsWith(`${s.source_id}/`));
  const file = recorded ?? (ledgerOf ? await fromLedger(ledgerOf, kbId, docId, source) : undefined);
  if (!file) throw notAFile(docId, kbId, 'it was not added from a file (text, or an upload)');
  const real = await fs.realpath(file).catch(() => undefined);
  const st = real ? await fs.lstat(real).catch(() => undefined) : undefined;
  if (!real || !st?.isFile()) throw notAFile(docId, kbId, `the file is no longer at ${file}`);
  if (real !== path.resolve(file)) throw notAFile(docId, kbId, `${file} was replaced by a link since it was read`);
  if (source && !source.follow_links) {
    const root = await fs.realpath(source.path).catch(() => undefined);
    if (!root || !isInside(root, real)) throw notAFile(docId, kbId, `${file} is not inside the folder of source "${source.source_id}"`);
  }
  return real;
}

/** A document stored before file paths were recorded: the file its ingestion record names, if it is indexed. */
async function fromLedger(ledgerOf: LedgerOf, kbId: string, docId: string, source: Source | undefined): Promise<string | undefined> {
  if (source) {
    const rel = docId.slice(source.source_id.length + 1);
    const rec = ledgerOf(kbId, source.source_id).get(rel);
    if (!rec?.indexed || rec.doc_id !== docId) return undefined;
    if (source.follow_links) return joinRel(source.path, rel);
    const root = await fs.realpath(source.path).catch(() => undefined);
    return root && (await statNoLinks(root, rel)) ? joinRel(root, rel) : undefined;
  }
  for (const rec of ledgerOf(kbId, null).values()) {
    if (rec.indexed && rec.doc_id === docId && path.isAbsolute(rec.file)) return rec.file;
  }
  return undefined;
}
