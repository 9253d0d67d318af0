import type { Command } from 'commander';
import { HEALTH_STATUSES, type HealthEntry, type HealthStatus } from '../../shared/contract/index.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { collect, globals, intArg } from './common.js';

function detail(e: HealthEntry): string {
  const facts = [
    e.duplicate_of ? `duplicate of ${e.duplicate_of}` : '',
    e.encoding ? `encoding ${e.encoding}${e.encoding_confidence !== undefined ? ` (${e.encoding_confidence.toFixed(2)})` : ''}` : '',
    e.script ? `script ${e.script}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return facts ? `${e.message} [${facts}]` : e.message;
}

export function registerHealth(program: Command): void {
  program
    .command('health')
    .description('ingestion health of a knowledge base: every file ingested through a source or `ragdesk add`, worst first')
    .requiredOption('--kb <kb_id>', 'knowledge base')
    .option('--source <source_id>', 'only this folder source')
    .option('--status <status>', `only this status (repeatable): ${HEALTH_STATUSES.join(', ')}`, collect)
    .option('--problems', 'only files with a problem (everything but ok and unchanged)')
    .option('--limit <n>', 'at most this many files', intArg, 1000)
    .action(async (o: { kb: string; source?: string; status?: string[]; problems?: boolean; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const report = await client.healthReport({
          kb_id: o.kb,
          problems: Boolean(o.problems),
          limit: o.limit,
          ...(o.source ? { source_id: o.source } : {}),
          ...(o.status ? { status: o.status as HealthStatus[] } : {}),
        });
        if (g.json) return printJson(report);
        const counts = Object.entries(report.counts).sort(
          (a, b) => HEALTH_STATUSES.indexOf(a[0] as HealthStatus) - HEALTH_STATUSES.indexOf(b[0] as HealthStatus),
        );
        printLine(
          `${o.kb} (model ${report.embedding_model}): ${counts.map(([s, n]) => `${n} ${s}`).join(', ') || 'no files ingested through sources or `ragdesk add` yet'}`,
        );
        printTable(
          report.files.map((e) => ({ ...e, indexed: e.indexed ? 'yes' : 'no', detail: detail(e) })),
          ['file', 'status', 'indexed', 'detail'],
        );
        if (report.total > report.files.length) printLine(`… ${report.total - report.files.length} more (--limit, --status, --json)`);
      });
    });
}
