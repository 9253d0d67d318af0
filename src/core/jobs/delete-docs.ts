import type { CoreContext } from '../services/context.js';
import { deleteDocuments } from '../services/document-service.js';

/**
 * Delete documents in bulk: per 500, one chunk commit (they vanish from search at once) then their rows; a
 * failure or a crash in between puts the chunks back (see deleteDocuments).
 */
export async function deleteDocs(ctx: CoreContext, kbId: string, docIds: string[]): Promise<void> {
  await deleteDocuments(ctx, kbId, docIds);
}
