import fs from 'node:fs';
import path from 'node:path';
import type { Source } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import type { CoreContext } from './context.js';

/**
 * The file on this machine a document came from, so the desktop app can open it with the OS (at the hit's page
 * where the viewer supports it). Files added by path keep their absolute path as `source`; documents from a
 * folder source keep the path inside the folder, joined here with the source's folder. Text added directly or
 * uploaded from a browser has no file: `invalid_parameter`.
 */
export async function documentFile(ctx: CoreContext, sources: Source[], kbId: string, docId: string): Promise<string> {
  ctx.store.registry.get(kbId);
  const doc = await ctx.store.docs.summary(kbId, docId);
  if (!doc)
    throw new RagError('document_not_found', `document "${docId}" not found in "${kbId}"`, { details: { kb_id: kbId, doc_id: docId } });
  const candidates: string[] = [];
  if (doc.source && path.isAbsolute(doc.source)) candidates.push(doc.source);
  for (const s of sources) {
    if (s.kb_id === kbId && docId.startsWith(`${s.source_id}/`)) candidates.push(path.join(s.path, ...doc.source.split('/')));
  }
  const found = candidates.find((p) => path.resolve(p) === p && fs.existsSync(p) && fs.statSync(p).isFile());
  if (!found) {
    throw new RagError(
      'invalid_parameter',
      candidates.length
        ? `the file of "${docId}" is no longer at ${candidates[0]}`
        : `"${docId}" was not added from a file on this machine`,
      {
        details: { kb_id: kbId, doc_id: docId },
      },
    );
  }
  return found;
}
