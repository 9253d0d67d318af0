import { sqlString } from '../store/sql.js';
import type { CoreContext } from '../services/context.js';
import { scheduleIndexing } from '../services/indexing.js';

/**
 * Delete documents in bulk (one commit per 500): document rows first, so they vanish for every reader at once;
 * their chunks follow (a crash in between leaves orphan chunks that the next open removes).
 */
export async function deleteDocs(ctx: CoreContext, kbId: string, docIds: string[]): Promise<void> {
  if (docIds.length === 0) return;
  await ctx.store.write(kbId, async () => {
    await ctx.store.docs.deleteMany(kbId, docIds);
    const table = await ctx.store.chunks(kbId);
    if (!table) return;
    for (let i = 0; i < docIds.length; i += 500) {
      await table.deleteWhere(
        `doc_id IN (${docIds
          .slice(i, i + 500)
          .map(sqlString)
          .join(', ')})`,
      );
    }
  });
  scheduleIndexing(ctx, kbId);
}
