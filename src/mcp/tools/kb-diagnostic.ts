import { z } from 'zod';
import { DiagnosticSchema, HealthEntrySchema, JobSchema } from '../../shared/contract/index.js';
import { defineTool, READ_ONLY } from '../tool-kit.js';

export const kbDiagnostic = defineTool({
  name: 'kb_diagnostic',
  title: 'Diagnose ragdesk',
  description:
    "Health of the knowledge-base server: data and store paths, per-KB index state, each model's state (loaded, loading, " +
    'downloading, missing, error), versions, and warnings that explain degraded results (for example why search is keyword-only). ' +
    'Use it when searches return nothing or say they are degraded. Also: ingestion jobs in progress (files, chunks, bytes, ETA) and, per ' +
    'knowledge base, the files that did not get in and why (encrypted, corrupt, scanned PDF without text, too large, unsupported, ' +
    'decode problems, language not covered by the model, duplicates).',
  input: z.strictObject({}),
  output: DiagnosticSchema.extend({
    vector_search: z.enum(['on', 'partial', 'off']),
    jobs: z.array(JobSchema).describe('Ingestion jobs running or interrupted, with progress'),
    ingestion: z.array(
      z.object({
        kb_id: z.string(),
        counts: z.record(z.string(), z.number().int()).describe('Files per health status'),
        problems: z.array(HealthEntrySchema).describe('Files with a problem, worst first (at most 20)'),
      }),
    ),
  }),
  annotations: { title: 'Diagnose ragdesk', ...READ_ONLY },
  async run(_args, { client }) {
    // The contract's diagnostic, limited by the dispatcher's scope to the KBs (and their models) the caller may read.
    const report = await client.diagnostic({});
    const used = new Set(report.kbs.map((k) => k.embedding_model));
    const loaded = report.models.filter((m) => m.kind === 'embedding' && used.has(m.model) && m.state === 'loaded').length;
    const vector_search: 'on' | 'partial' | 'off' = used.size === 0 || loaded === used.size ? 'on' : loaded > 0 ? 'partial' : 'off';
    const { jobs } = await client.listJobs({ active: true, limit: 20 });
    const ingestion = await Promise.all(
      report.kbs.map(async (k) => {
        const h = await client.healthReport({ kb_id: k.kb_id, problems: true, limit: 20 });
        return { kb_id: k.kb_id, counts: h.counts, problems: h.files };
      }),
    );
    const warnings = [...report.warnings];
    for (const i of ingestion) {
      const bad = i.problems.filter((p) => !p.indexed).length;
      if (bad) warnings.push(`${i.kb_id}: ${bad}${bad === 20 ? '+' : ''} file(s) did not get in (see ingestion)`);
    }
    for (const s of await client.listSources({})) if (s.last_error) warnings.push(`source ${s.source_id} (${s.path}): ${s.last_error}`);
    return { ...report, warnings, vector_search, jobs, ingestion };
  },
});
