/**
 * A writer for the kill -9 matrix (write-crash.test.ts), run as its own process:
 *   node --import tsx e2e/crash-driver.ts <dataDir> writes|stream|model|pack <modelA> [modelB]
 * with RAGDESK_TEST_CRASH_AT=<stage>[@n] so that it kills itself at that stage of a write (store/crash-point.ts).
 * Each operation is logged to <dataDir>/acked.jsonl when it starts and again once it returns (acknowledged): an
 * acknowledged write must survive; the one in flight at the kill may have happened or not, but wholly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../src/core/core.js';
import { flushIndexing } from '../src/core/services/indexing.js';
import { warmUpSearch } from '../src/core/services/warm-up.js';
import { physicalChunkTable } from '../src/core/store/chunk-rows.js';
import { streamFile } from '../src/core/services/stream-ingest.js';

const [dataDir, scenario, modelA, modelB] = process.argv.slice(2) as [string, string, string, string | undefined];
const ackFile = path.join(dataDir, 'acked.jsonl');
const log = (line: Record<string, unknown>) => fs.appendFileSync(ackFile, `${JSON.stringify(line)}\n`);
async function op(line: { op: 'put' | 'delete'; doc_id: string; marker?: string }, work: () => Promise<unknown>): Promise<void> {
  log({ phase: 'begin', ...line });
  await work();
  log({ phase: 'done', ...line });
}

/** A document of a few sections (`sections`), each carrying the operation's marker word. */
function body(marker: string, sections = 3): string {
  return Array.from({ length: sections }, (_, i) => i + 1)
    .map((s) => `## Section ${s}\n\nThe ${marker} entry ${s} records cargo moved at the harbour.`)
    .join('\n\n');
}

// Texts from 400 characters on are kept in content files (store/content-files.ts): the larger writes below take that path.
const OPTIONS = { dataDir, allowDownload: false, contentFileMinChars: 400 };
let core = await Core.open(OPTIONS);
if (!core.ctx.store.registry.find('k')) await core.client.createKb({ kb_id: 'k', embedding_model: modelA });
const add = (docId: string, marker: string, overwrite = false, sections = 3) =>
  core.client.addDocument({
    kb_id: 'k',
    doc_id: docId,
    content: body(marker, sections),
    format: 'markdown',
    chunking: { strategy: 'markdown', chunk_size: 32, chunk_overlap: 0 },
    overwrite,
  });

if (scenario === 'writes') {
  // add d0, add d1, add d2, overwrite d2, delete d1, add d5, ... : every kind of write, upkeep every 4 operations;
  // every third write is large (its text in a content file), so overwrites go from small to large and back.
  for (let i = 0; i < 30; i++) {
    const marker = `m${i}x`;
    const sections = i % 3 === 0 ? 8 : 3;
    if (i % 5 === 3) await op({ op: 'put', doc_id: `d${i - 1}`, marker }, () => add(`d${i - 1}`, marker, true, sections));
    else if (i % 5 === 4)
      await op({ op: 'delete', doc_id: `d${i - 3}` }, () => core.client.deleteDocument({ kb_id: 'k', doc_id: `d${i - 3}` }));
    else await op({ op: 'put', doc_id: `d${i}`, marker }, () => add(`d${i}`, marker, false, sections));
    if (i % 4 === 3) await flushIndexing(core.ctx);
  }
} else if (scenario === 'stream') {
  // Files written section by section (a few hundred characters each), new and overwritten, among ordinary adds.
  const file = path.join(dataDir, 'big.md');
  const stream = (docId: string, marker: string, overwrite: boolean) => {
    fs.writeFileSync(
      file,
      Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\nThe ${marker} entry ${i} records cargo moved at the harbour.`).join('\n\n'),
    );
    return streamFile(core.ctx, 'k', {
      path: file,
      format: 'markdown',
      doc_id: docId,
      source: file,
      chunking: { strategy: 'markdown', chunk_size: 32, chunk_overlap: 0 },
      overwrite,
      fallbackTitle: 'big.md',
      sectionChars: 600,
    });
  };
  for (let i = 0; i < 6; i++) {
    const marker = `s${i}x`;
    const docId = `s${i - (i % 2)}`;
    await op({ op: 'put', doc_id: docId, marker }, () => stream(docId, marker, i % 2 === 1));
    await op({ op: 'put', doc_id: `d${i}`, marker: `m${i}x` }, () => add(`d${i}`, `m${i}x`));
  }
} else if (scenario === 'model' && modelB) {
  for (let i = 0; i < 40; i++) await op({ op: 'put', doc_id: `d${i}`, marker: `m${i}x` }, () => add(`d${i}`, `m${i}x`));
  await core.client.changeKbModel({ kb_id: 'k', model: modelB });
  for (;;) {
    const { migration } = await core.client.modelChangeStatus({ kb_id: 'k' });
    if (migration && migration.state !== 'running' && migration.state !== 'indexing') break;
    await new Promise((r) => setTimeout(r, 20));
  }
} else if (scenario === 'pack') {
  // A KB as ragdesk wrote it before the packed hit column, opened again: a server's warm-up has upkeep add it.
  // 6,000 chunks: enough for the kill to come while LanceDB writes the column, not after.
  for (let i = 0; i < 20; i++) await op({ op: 'put', doc_id: `d${i}`, marker: `m${i}x` }, () => add(`d${i}`, `m${i}x`, false, 100));
  await flushIndexing(core.ctx);
  const raw = await core.ctx.store.db.openTable(physicalChunkTable(core.ctx.store.registry.get('k')));
  await raw.dropColumns(['hit']);
  raw.close();
  await core.close();
  core = await Core.open(OPTIONS);
  await warmUpSearch(core.ctx);
  await flushIndexing(core.ctx);
}
await core.close();
process.stdout.write('finished\n');
