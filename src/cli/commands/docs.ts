import path from 'node:path';
import type { Command } from 'commander';
import { describeLocation } from '../location.js';
import { withClient } from '../open-core.js';
import { printJson, printLine, printTable } from '../output.js';
import { chunkingFrom, chunkingOptions, globals, intArg } from './common.js';

export function registerDocs(program: Command): void {
  const docs = program.command('docs').description('list, show and remove documents');

  docs
    .command('list')
    .requiredOption('--kb <kb_id>', 'knowledge base')
    .option('--limit <n>', 'page size (1-1000)', intArg, 100)
    .option('--offset <n>', 'skip this many', intArg, 0)
    .description('documents, newest first')
    .action(async (o: { kb: string; limit: number; offset: number }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const res = await client.listDocuments({ kb_id: o.kb, limit: o.limit, offset: o.offset });
        if (g.json) return printJson(res);
        printTable(
          res.documents.map((d) => ({ ...d, updated: d.updated_at.slice(0, 19) })),
          ['doc_id', 'title', 'parser', 'chunk_count', 'size', 'updated'],
        );
        printLine(`${res.documents.length} of ${res.total}`);
      });
    });

  docs
    .command('show <doc_id>')
    .requiredOption('--kb <kb_id>', 'knowledge base')
    .description('a document with its full content')
    .action(async (docId: string, o: { kb: string }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const doc = await client.getDocument({ kb_id: o.kb, doc_id: docId });
        if (g.json) return printJson(doc);
        printLine(`${doc.title}  (${doc.doc_id}, ${doc.parser}, ${doc.chunk_count} chunks, source ${doc.source || '-'})`);
        if (Object.keys(doc.metadata).length) printLine(`metadata: ${JSON.stringify(doc.metadata)}`);
        printLine('');
        printLine(doc.content);
      });
    });

  docs
    .command('rm <doc_id>')
    .requiredOption('--kb <kb_id>', 'knowledge base')
    .description('delete a document and its chunks')
    .action(async (docId: string, o: { kb: string }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const res = await client.deleteDocument({ kb_id: o.kb, doc_id: docId });
        if (g.json) printJson(res);
        else printLine(`deleted ${docId} (${res.chunks_deleted} chunks)`);
      });
    });

  program
    .command('chunks <doc_id>')
    .requiredOption('--kb <kb_id>', 'knowledge base')
    .option('--offset <n>', 'first chunk index', intArg, 0)
    .option('--limit <n>', 'chunks to show', intArg, 20)
    .description("a document's chunks with their locations")
    .action(async (docId: string, o: { kb: string; offset: number; limit: number }, cmd: Command) => {
      const g = globals(cmd);
      await withClient(g, async ({ client }) => {
        const res = await client.listChunks({ kb_id: o.kb, doc_id: docId, offset: o.offset, limit: o.limit });
        if (g.json) return printJson(res);
        for (const c of res.chunks) {
          printLine(`#${c.chunk_index}  ${c.characters} chars, ${c.tokens} tokens  ${describeLocation(c.location)}`);
          printLine(c.text);
          printLine('');
        }
        printLine(`${res.chunks.length} of ${res.total} chunks`);
      });
    });

  chunkingOptions(
    program
      .command('preview <file>')
      .option('--kb <kb_id>', "use this knowledge base's model and chunking defaults")
      .description('show how a file would be chunked; writes nothing'),
  ).action(async (file: string, o: { kb?: string } & Record<string, unknown>, cmd: Command) => {
    const g = globals(cmd);
    await withClient(g, async ({ client }) => {
      const chunking = chunkingFrom(o as never);
      // Absolute: the owner of the data dir, not this process, may be the one that reads the file.
      const res = await client.preview({ path: path.resolve(file), ...(o.kb ? { kb_id: o.kb } : {}), ...(chunking ? { chunking } : {}) });
      if (g.json) return printJson(res);
      printLine(
        `${res.parser}: ${res.characters} characters → ${res.chunks.length} chunks (${res.chunking.strategy}, ${res.chunking.chunk_size}/${res.chunking.chunk_overlap} tokens)`,
      );
      for (const w of res.warnings) printLine(`warning: ${w}`);
      for (const c of res.chunks) {
        printLine(`#${c.chunk_index}  ${c.characters} chars, ${c.tokens} tokens  ${describeLocation(c.location)}`);
        printLine(`   ${c.text.replace(/\s+/g, ' ').slice(0, 200)}${c.text.length > 200 ? '…' : ''}`);
      }
    });
  });
}
