import { describe, expect, it } from 'vitest';
import { headingLevels, linesToParagraphs, runsToLines, type PdfTextRun } from './pdf-layout.js';

const run = (str: string, x: number, y: number, width: number, size = 10, hasEOL = false): PdfTextRun => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
  hasEOL,
});

describe('runsToLines', () => {
  it('breaks lines at hasEOL and at a change of baseline', () => {
    const lines = runsToLines([
      run('Hello', 0, 700, 25),
      run(' world', 25, 700, 30, 10, true),
      run('next', 0, 688, 20),
      run('line', 0, 676, 20),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world', 'next', 'line']);
  });

  it('inserts a space for a visible gap, but not between CJK characters or touching runs', () => {
    const lines = runsToLines([
      run('Incoterms', 0, 500, 45),
      run('FOB', 50, 500, 15),
      run('x', 65, 500, 5),
      run('海关', 100, 480, 20),
      run('申报', 23, 480, 20),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Incoterms FOBx', '海关申报']);
  });

  it('treats small baseline shifts (superscripts) as the same line', () => {
    const lines = runsToLines([run('m', 0, 500, 8), run('2', 8, 503, 4, 6), run(' area', 12, 500, 20)]);
    expect(lines.map((l) => l.text)).toEqual(['m2 area']);
  });
});

describe('linesToParagraphs and headingLevels', () => {
  it('splits paragraphs at large gaps and font size changes, and ranks heading sizes', () => {
    const paragraphs = linesToParagraphs([
      { text: 'Big Title', y: 760, size: 20 },
      { text: 'Section', y: 730, size: 14 },
      { text: 'body one', y: 712, size: 10 },
      { text: 'body two', y: 700, size: 10 },
      { text: 'after gap', y: 670, size: 10 },
      { text: 'next column', y: 760, size: 10 },
    ]);
    expect(paragraphs.map((p) => p.text)).toEqual(['Big Title', 'Section', 'body one\nbody two', 'after gap', 'next column']);
    expect(headingLevels(paragraphs)).toEqual([1, 2, undefined, undefined, undefined]);
  });
});
