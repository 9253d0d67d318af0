import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_SEPARATOR } from '../assemble.js';
import { markdownParser } from '../markdown-parser.js';
import { textParser } from '../text-parser.js';
import { tempDir } from '../../test-support.js';
import { SectionParser } from './section-parse.js';
import { openTextStream } from './text-sections.js';

async function streamed(file: string, format: 'markdown' | 'text', sectionChars: number) {
  const s = await openTextStream(file, { markdown: format === 'markdown', sectionChars });
  const parser = new SectionParser(format, s);
  const blocks = [];
  const texts: string[] = [];
  let offset = 0;
  for await (const section of s.sections) {
    const doc = await parser.parse(section);
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
    expect(got.parser.title).toBe(whole.title);
  });
});
