import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_SEPARATOR } from '../assemble.js';
import { markdownParser } from '../markdown-parser.js';
import type { ParsedDocument } from '../types.js';
import { defaultParsePool, type ParsePool } from '../pool/parse-pool.js';
import { parseSection, type SectionTask } from './section-task.js';
import { textParser } from '../text-parser.js';
import { tempDir } from '../../test-support.js';
import { SectionParser } from './section-parse.js';
import { openTextStream } from './text-sections.js';

/**
 * The section task run in this thread by a pool that finishes tasks in the reverse of the order they came in (each
 * waits for the one after it): the worst order the real pool's workers could finish overlapping parses in.
 */
function reversingPool(): ParsePool {
  const done: Array<Promise<unknown>> = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const run = (_kind: string, task: SectionTask) => {
    const i = done.length;
    const finished = (async () => {
      const result = parseSection(task);
      // Wait for the task submitted after this one to finish first (the last one waits 100 ms for none to come).
      for (let waited = 0; !done[i + 1] && waited < 100; waited += 5) await sleep(5);
      if (done[i + 1]) await done[i + 1];
      return result;
    })();
    done.push(finished);
    return finished;
  };
  return { run } as unknown as ParsePool;
}

/**
 * A file parsed section by section and put together; `overlap`: every section's parse is started before any is
 * awaited (as the ingest reads ahead), so the pool may finish them in any order.
 */
async function streamed(file: string, format: 'markdown' | 'text', sectionChars: number, overlap = false, pool?: ParsePool) {
  const s = await openTextStream(file, { markdown: format === 'markdown', sectionChars });
  const parser = new SectionParser(format, s, overlap ? reversingPool() : pool);
  const pending: Array<Promise<ParsedDocument>> = [];
  for await (const section of s.sections) {
    const doc = parser.parse(section);
    if (!overlap) await doc;
    pending.push(doc);
  }
  const blocks = [];
  const texts: string[] = [];
  let offset = 0;
  for (const doc of await Promise.all(pending)) {
    if (!doc.text) continue;
    if (texts.length) offset += BLOCK_SEPARATOR.length;
    for (const b of doc.blocks) blocks.push({ ...b, char_start: b.char_start + offset, char_end: b.char_end + offset });
    texts.push(doc.text);
    offset += doc.text.length;
  }
  return { parser, blocks, text: texts.join(BLOCK_SEPARATOR) };
}

describe('SectionParser', () => {
  it('parses a Markdown file section by section into the blocks the whole-file parser makes', async () => {
    const lines = ['---', 'title: Port log', 'tags: [cargo, порт]', '---', '', '# Port log', ''];
    for (let i = 0; i < 300; i++) {
      if (i % 40 === 0) lines.push(`## Part ${i / 40}`, '');
      lines.push(`### Day ${i}`, '', `Arrived ${i} ships. Прибыло ${i} судов. 到达${i}艘船。`, '', `- crate ${i}`, `- box ${i}`, '');
      if (i % 25 === 0) lines.push('| a | b |', '|---|---|', `| ${i} | ${i + 1} |`, '');
    }
    const source = lines.join('\n');
    const file = path.join(tempDir('ragdesk-section-parse-'), 'log.md');
    fs.writeFileSync(file, source);
    const whole = await markdownParser.parse({ data: Buffer.from(source), filename: file });
    const got = await streamed(file, 'markdown', 3000);
    expect(got.text).toBe(whole.text);
    expect(got.blocks).toEqual(whole.blocks);
    // Parses that overlap are placed in file order: the same heading paths.
    const overlapped = await streamed(file, 'markdown', 3000, true);
    expect(overlapped.blocks).toEqual(whole.blocks);
    expect(got.parser.title).toBe('Port log');
    expect(got.parser.metadata).toMatchObject({ title: 'Port log', tags: ['cargo', 'порт'], encoding: 'utf-8' });
  });

  it('parses plain text section by section like the whole-file parser, with the title line', async () => {
    const paras = Array.from({ length: 500 }, (_, i) => `Line ${i} of the report.\nИ ещё строка ${i}.`);
    const source = `Quarterly report\n\n${paras.join('\n\n')}\n`;
    const file = path.join(tempDir('ragdesk-section-parse-'), 'report.txt');
    fs.writeFileSync(file, source);
    const whole = await textParser.parse({ data: Buffer.from(source), filename: file });
    const got = await streamed(file, 'text', 2500);
    expect(got.text).toBe(whole.text);
    expect(got.blocks).toEqual(whole.blocks);
    // The same through the parse pool's `section` task, in a worker.
    const inPool = await streamed(file, 'text', 2500, false, defaultParsePool());
    expect(inPool.blocks).toEqual(whole.blocks);
    expect(got.parser.title).toBe(whole.title);
  });
});
