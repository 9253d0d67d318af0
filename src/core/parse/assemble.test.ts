import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleDocument, HeadingTracker, normalizeBlockText, WARNING_EMPTY_TEXT } from './assemble.js';
import { expectConsistent } from './test-support.js';

/** normalizeBlockText as it was before its fast paths: every block through every step. */
function reference(text: string, kind: string): string {
  let t = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (/[^\x20-\x7e\n\t]/.test(t)) {
    t = t
      .normalize('NFC')
      .replace(/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g, ' ')
      .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
  }
  const lines = t.split('\n');
  if (kind === 'code') {
    return lines
      .map((l) => l.replace(/[ \t]+$/, ''))
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+|\n+$/g, '');
  }
  const out = lines.map((l) => l.replace(/[ \t]+/g, ' ').trim()).filter(Boolean);
  return kind === 'heading' ? out.join(' ') : out.join('\n');
}

describe('normalizeBlockText', () => {
  it('gives what every step over every block gives (its fast paths change nothing)', () => {
    // Text from letters, every kind of space and line break, invisibles, controls, accents to compose, CJK.
    const pieces = [
      'a',
      'Zé',
      'e\u0301',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\r',
      '\u00a0',
      '\u3000',
      '\u2028',
      '\u200b',
      '\u00ad',
      '\u0007',
      '\u000b',
      '\ufeff',
      '海',
      'ж',
      '.',
    ];
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom('paragraph', 'heading', 'code', 'list'), (t, kind) => {
        expect(normalizeBlockText(t, kind as 'paragraph')).toBe(reference(t, kind));
      }),
      { numRuns: 5000 },
    );
  });

  it('applies NFC, collapses spaces and tabs, trims lines and drops empty lines', () => {
    const decomposed = 'e\u0301te\u0301'; // "été" with combining accents
    expect(normalizeBlockText(`  ${decomposed}\t\tis   here  \n\n   second\u00a0\u00a0line \r\n`)).toBe('été is here\nsecond line');
  });

  it('removes invisible and control characters', () => {
    expect(normalizeBlockText('soft\u00adhyphen zero\u200bwidth\u0007bell\ufeff')).toBe('softhyphen zerowidthbell');
  });

  it('joins a heading onto one line', () => {
    expect(normalizeBlockText('Customs\n  Clearance ', 'heading')).toBe('Customs Clearance');
  });

  it('keeps code indentation but trims trailing spaces and outer blank lines', () => {
    expect(normalizeBlockText('\n\n  if (x) {\n    y();   \n\n\n\n  }\n\n', 'code')).toBe('  if (x) {\n    y();\n\n  }');
  });
});

describe('assembleDocument', () => {
  it('joins blocks with a blank line and records character ranges into the text', () => {
    const doc = assembleDocument({
      parser: 'test',
      blocks: [
        { kind: 'heading', level: 1, text: ' Title ', heading_path: ['Title'] },
        { kind: 'paragraph', text: '   ' },
        { kind: 'paragraph', text: 'Таможня  и\u3000海关', heading_path: [] },
        { kind: 'paragraph', text: 'last', page: 2, line_start: 3, line_end: 4 },
      ],
      title: '  My\n title ',
      metadata: { encoding: 'utf-8' },
    });
    expect(doc.text).toBe('Title\n\nТаможня и 海关\n\nlast');
    expect(doc.blocks.map((b) => [b.char_start, b.char_end])).toEqual([
      [0, 5],
      [7, 19],
      [21, 25],
    ]);
    expect(doc.blocks[1]!.heading_path).toBeUndefined();
    expect(doc.blocks[2]).toMatchObject({ page: 2, line_start: 3, line_end: 4 });
    expect(doc.title).toBe('My title');
    expect(doc.metadata).toEqual({ encoding: 'utf-8' });
    expect(doc.warnings).toEqual([]);
    expectConsistent(doc);
  });

  it('returns an empty document with a warning when nothing is left', () => {
    const doc = assembleDocument({ parser: 'test', blocks: [{ kind: 'paragraph', text: ' \n\t ' }] });
    expect(doc).toMatchObject({ text: '', blocks: [], warnings: [WARNING_EMPTY_TEXT] });
  });
});

describe('HeadingTracker', () => {
  it('replaces deeper levels and skips missing ones', () => {
    const h = new HeadingTracker();
    expect(h.enter(1, 'A')).toEqual(['A']);
    expect(h.enter(3, 'A.x.1')).toEqual(['A', 'A.x.1']);
    expect(h.enter(2, 'A.2')).toEqual(['A', 'A.2']);
    expect(h.enter(1, 'B')).toEqual(['B']);
    expect(h.path()).toEqual(['B']);
  });
});
