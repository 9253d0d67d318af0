import type { Command } from 'commander';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { chunkingFrom, chunkingOptions, globals } from './common.js';
import { describeModelChange, registerKbModel } from './kb-model.js';

export function registerKb(program: Command): void {
  const kb = program.command('kb').description('create, list, show and remove knowledge bases');

  chunkingOptions(
    kb
      .command('create <kb_id>')
      .description('create a knowledge base')
      .option('--name <name>', 'display name')
      .option('--description <text>', 'what it holds', '')
      .option('--department <name>', 'owning department', '')
      .option(
        '--model <model>',
        'embedding model: a preset (english, multilingual), a model folder, ollama:<name>[@url] or openai:<name>[@url] (see docs/embedders.md), or none (full-text only: no model, no vectors)',
      )
      .option('--languages <list>', 'comma-separated language codes, e.g. en,ru,zh')
      .option('--disabled', 'create it disabled'),
  ).action(async (kbId: string, o: Record<string, string | number | boolean | undefined>, cmd: Command) => {
    const g = globals(cmd);
    await withClient(g, async ({ client }) => {
      const chunking = chunkingFrom(o as never);
      const created = await client.createKb({
        kb_id: kbId,
        ...(o.name ? { name: String(o.name) } : {}),
        description: String(o.description ?? ''),
        department: String(o.department ?? ''),
        enabled: !o.disabled,
        ...(o.model ? { embedding_model: String(o.model) } : {}),
        languages: o.languages
          ? String(o.languages)
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [],
        ...(chunking ? { chunking } : {}),
      });
      if (g.json) printJson(created);
      else
        printLine(
          `created knowledge base ${created.kb_id} (model ${created.embedding_model}, chunking ${created.chunking.strategy} ${created.chunking.chunk_size}/${created.chunking.chunk_overlap})`,
        );
    });
  });

  kb.command('list')
    .description('list knowledge bases')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const kbs = await client.listKbs({});
        if (g.json) return printJson(kbs);
        if (kbs.length === 0) return printLine('no knowledge bases yet: ragdesk kb create <id>');
        printTable(
          kbs.map((k) => ({ ...k, enabled: k.enabled ? 'yes' : 'no' })),
          ['kb_id', 'name', 'enabled', 'document_count', 'chunk_count', 'embedding_model'],
        );
      });
    });

  kb.command('show <kb_id>')
    .description('show one knowledge base with its statistics')
    .action(async (kbId: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const info = await client.getKb({ kb_id: kbId });
        const stats = (await client.stats({})).kbs.find((s) => s.kb_id === kbId);
        if (g.json) return printJson({ ...info, stats });
        for (const [k, v] of Object.entries({
          ...info,
          ...(stats
            ? { size_bytes: stats.size_bytes, vector_index: stats.vector_index, fts_index: stats.fts_index, last_update: stats.last_update }
            : {}),
        })) {
          printLine(`${k.padEnd(16)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        }
        if (stats?.migration) printLine(`${'model change'.padEnd(16)} ${describeModelChange(stats.migration)}`);
      });
    });

  registerKbModel(kb);

  kb.command('rm <kb_id>')
    .description('delete a knowledge base and everything in it')
    .action(async (kbId: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const res = await client.deleteKb({ kb_id: kbId });
        if (g.json) printJson(res);
        else printLine(`deleted knowledge base ${kbId}`);
      });
    });
}
