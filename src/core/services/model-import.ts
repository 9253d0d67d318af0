import path from 'node:path';
import type { ImportedModel, ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { checkModelFolder, copyModelFolder, importTarget, readImports, recordImport } from '../embed/model-import.js';
import { expandHome } from '../embed/model-spec.js';
import type { CoreContext } from './context.js';
import { dataPaths } from '../config/data-dir.js';

/**
 * `importModel`: check a model folder, copy it into `<data>/models`, and load it from there with downloads off,
 * confirming that it embeds with the dimension its config names (or, for a reranker, that it scores). A folder
 * that fails any step leaves nothing behind (an earlier import it would have replaced comes back).
 */
export async function importModel(ctx: CoreContext, input: ParsedInput<'importModel'>): Promise<ImportedModel> {
  const src = path.resolve(expandHome(input.path));
  const target = importTarget(src, input.kind, input.as);
  const check = checkModelFolder(src, input.kind, target.preset?.dtype);
  const modelsDir = dataPaths(ctx.options.dataDir).models;
  const dir = path.join(modelsDir, ...target.id.split('/'));
  const imported = target.id in readImports(modelsDir);
  const copy = copyModelFolder(src, dir, check.onnx, { replace: input.replace, imported });
  let dim: number | null = null;
  try {
    if (input.kind === 'embedding') {
      const embedder = await ctx.models.getEmbedder(target.model, { allowDownload: false });
      const [vector] = await embedder.embedQueries(['ragdesk model import check']);
      dim = vector?.length ?? 0;
      if (check.dim !== undefined && dim !== check.dim) {
        throw new RagError('invalid_parameter', `it embeds ${dim}-d vectors, but its config.json says ${check.dim}`);
      }
    } else {
      const reranker = await ctx.models.getReranker(target.model, { allowDownload: false });
      const scores = await reranker.score('ragdesk', ['ragdesk model import check']);
      if (scores.length !== 1 || !Number.isFinite(scores[0])) throw new RagError('invalid_parameter', 'it does not score a passage');
    }
  } catch (err) {
    copy.undo();
    const why = err instanceof Error ? err.message : String(err);
    throw new RagError('invalid_parameter', `${src} does not load as a ${input.kind} model: ${why}`, { details: { dir: src }, cause: err });
  }
  copy.commit();
  const importedAt = new Date().toISOString();
  recordImport(modelsDir, target.id, {
    model: target.model,
    kind: input.kind,
    source_dir: src,
    imported_at: importedAt,
    dtype: check.dtype,
    dim,
  });
  return {
    model: target.model,
    kind: input.kind,
    preset: target.preset?.name ?? null,
    dir,
    dim,
    dtype: check.dtype,
    files: copy.files,
    bytes: copy.bytes,
    replaced: copy.replaced,
    imported_at: importedAt,
  };
}
