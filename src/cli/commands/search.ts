import type { Command } from 'commander';
import type { Hit } from '../../shared/contract/index.js';
import { describeLocation } from '../location.js';
import { withClient } from '../open-core.js';
import { printJson, printLine } from '../output.js';
import { parseFilterList } from '../../shared/filter-expr.js';
import { collect, globals, intArg } from './common.js';

function citation(h: Hit): string {
  const where = describeLocation(h.location);
  return `${h.kb_id}/${h.doc_id}#${h.chunk_index}${where ? `  ${where}` : ''}`;
}

export function registerSearch(program: Command): void {
  program
    .command('search <query>')
    .description('search one or more knowledge bases (or all with --all)')
    .option('--kb <kb_id>', 'knowledge base to search (repeatable)', collect)
    .option('--all', 'search every enabled knowledge base')
    .option('--mode <mode>', 'vector | fts | hybrid', 'hybrid')
    .option('--top-k <n>', 'number of hits (1-50)', intArg, 5)
    .option('--filter <key=value>', 'metadata filter, field__op=value (repeatable)', collect)
    .option('--rerank', 'rerank with the cross-encoder when it is available')
    .action(
      async (
        query: string,
        o: { kb?: string[]; all?: boolean; mode: string; topK: number; filter?: string[]; rerank?: boolean },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        if (!o.kb?.length && !o.all) {
          cmd.error('give --kb <kb_id> or --all');
        }
        await withClient(
          g,
          async ({ client }) => {
            const filter = parseFilterList(o.filter);
            const res = await client.search({
              query,
              ...(o.kb?.length && !o.all ? { kb_ids: o.kb } : {}),
              mode: o.mode as 'hybrid',
              top_k: o.topK,
              use_rerank: Boolean(o.rerank),
              ...(filter ? { filter } : {}),
            });
            if (g.json) return printJson(res);
            if (res.degraded) process.stderr.write(`note: ${res.degraded}\n`);
            if (res.hits.length === 0) return printLine('no hits');
            res.hits.forEach((h, i) => {
              printLine(`${i + 1}. ${h.title}  [${h.score.toFixed(3)}]`);
              printLine(`   ${citation(h)}`);
              printLine(`   ${h.text.replace(/\s+/g, ' ').slice(0, 240)}${h.text.length > 240 ? '…' : ''}`);
            });
          },
          o.mode === 'fts' ? undefined : o.all ? 'all' : o.kb,
        );
      },
    );
}
