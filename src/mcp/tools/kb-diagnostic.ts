import { z } from 'zod';
import { DiagnosticSchema } from '../../shared/contract/index.js';
import { diagnostic } from '../../core/services/system-service.js';
import { defineTool, READ_ONLY } from '../tool-kit.js';

export const kbDiagnostic = defineTool({
  name: 'kb_diagnostic',
  title: 'Diagnose ragdesk',
  description:
    'Health of the knowledge-base server: data and store paths, per-KB index state, each model\'s state (loaded, loading, ' +
    'downloading, missing, error), versions, and warnings that explain degraded results (for example why search is keyword-only). ' +
    'Use it when searches return nothing or say they are degraded.',
  input: z.strictObject({}),
  output: DiagnosticSchema.extend({ vector_search: z.enum(['on', 'partial', 'off']) }),
  annotations: { title: 'Diagnose ragdesk', ...READ_ONLY },
  async run(_args, { core, scope }) {
    // Owners get the contract's diagnostic; a key sees the same report limited to the KBs it can read.
    const full = await diagnostic(core.ctx, scope.admin ? undefined : (scope.read ?? new Set()));
    const used = new Set(full.kbs.map((k) => k.embedding_model));
    // A key learns nothing about models only other KBs use.
    const hidden = full.models.filter((m) => m.kind === 'embedding' && !used.has(m.model)).map((m) => m.model);
    const report = scope.admin
      ? full
      : { ...full, models: full.models.filter((m) => !hidden.includes(m.model)), warnings: full.warnings.filter((w) => !hidden.some((h) => w.includes(h))) };
    const loaded = report.models.filter((m) => m.kind === 'embedding' && used.has(m.model) && m.state === 'loaded').length;
    const vector_search: 'on' | 'partial' | 'off' = used.size === 0 || loaded === used.size ? 'on' : loaded > 0 ? 'partial' : 'off';
    return { ...report, vector_search };
  },
});
