import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support.js';
import { openTextStream, type TextSection } from './text-sections.js';

async function read(file: string, markdown: boolean, sectionChars: number): Promise<{ encoding: string; sections: TextSection[] }> {
  const s = await openTextStream(file, { markdown, sectionChars });
  const sections: TextSection[] = [];
  for await (const x of s.sections) sections.push(x);
  return { encoding: s.encoding, sections };
}

function write(name: string, data: string | Buffer): string {
  const file = path.join(tempDir('ragdesk-sections-'), name);
  fs.writeFileSync(file, data);
  return file;
}

/** Lines of a Markdown file: headings, paragraphs, a fenced block with blank lines inside, in three scripts. */
function markdown(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(`## Раздел ${i} 第${i}节`, '', `Paragraph ${i}: the harbour moved ${i * 7} crates. Груз прибыл. 货物已到达。`, '');
    if (i % 5 === 0) out.push('```js', `const a${i} = 1;`, '', `const b${i} = 2;`, '```', '');
  }
  return out.join('\n');
}

describe('openTextStream', () => {
  it('cuts a Markdown file into sections that put together are the file, each ending at a blank line outside code', async () => {
    const text = markdown(400);
    const { sections } = await read(write('a.md', text), true, 2000);
    expect(sections.length).toBeGreaterThan(10);
    expect(sections.map((s) => s.source).join('')).toBe(text);
    let line = 1;
    for (const s of sections.slice(0, -1)) {
      expect(s.firstLine).toBe(line);
      expect(s.source.endsWith('\n\n')).toBe(true);
      // No section ends inside a fenced block: its fences pair up.
      expect((s.source.match(/^```/gm) ?? []).length % 2).toBe(0);
      line += (s.source.match(/\n/g) ?? []).length;
    }
    expect(sections.at(-1)!.bytesRead).toBe(Buffer.byteLength(text));
  });

  it('decodes a legacy encoding across read boundaries (CP1251 Russian) and joins CRLF split between reads', async () => {
    const para = 'Съешь же ещё этих мягких французских булок, да выпей чаю.\r\n';
    const text = Array.from({ length: 40_000 }, (_, i) => (i % 3 === 2 ? '\r\n' : para)).join('');
    const { encoding, sections } = await read(write('ru.txt', iconv.encode(text, 'win1251')), false, 100_000);
    expect(encoding).toBe('windows-1251');
    expect(sections.length).toBeGreaterThan(10);
    expect(sections.map((s) => s.source).join('')).toBe(text.replace(/\r\n/g, '\n'));
  });

  it('keeps multi-byte UTF-8 characters whole across 1 MB reads', async () => {
    const text = Array.from({ length: 120_000 }, (_, i) => `行${i}：数据已保存。\n${i % 4 === 3 ? '\n' : ''}`).join('');
    const { sections } = await read(write('zh.txt', text), false, 300_000);
    expect(sections.map((s) => s.source).join('')).toBe(text);
    expect(sections.every((s) => !s.source.includes('\ufffd'))).toBe(true);
  });

  it('closes and reopens a fence when a code block is too long to keep in one section', async () => {
    const code = Array.from({ length: 3000 }, (_, i) => `line_${i} = ${i}`).join('\n');
    const text = `# Code\n\n\`\`\`python\n${code}\n\`\`\`\n\nAfter.\n`;
    const { sections } = await read(write('code.md', text), true, 5000);
    expect(sections.length).toBeGreaterThan(1);
    // Section 0 is the heading; section 1 opens the block; a later one reopens it.
    const forced = sections.findIndex((s, i) => i > 1 && s.source.startsWith('```python\n'));
    expect(forced).toBeGreaterThan(1);
    // The section before ends with a closing fence; the reopened one is numbered from the fence line.
    expect(sections[forced - 1]!.source.trimEnd().endsWith('```')).toBe(true);
    const realFirst = sections[forced]!.source.split('\n')[1];
    expect(text.split('\n')[sections[forced]!.firstLine]).toBe(realFirst);
  });

  it('cuts a file without any line end at the section size', async () => {
    const text = 'x'.repeat(50_000);
    const { sections } = await read(write('one-line.txt', text), false, 4000);
    expect(sections.length).toBeGreaterThan(5);
    expect(sections.map((s) => s.source).join('')).toBe(text);
  });
});
