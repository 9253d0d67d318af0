/**
 * Page text layout for PDFs: pdf.js gives positioned text runs; this joins them into lines (respecting
 * `hasEOL` and the baseline's y position) and lines into paragraphs (a vertical gap clearly larger than the
 * line spacing starts a new paragraph). Pure functions, so they are tested without a PDF.
 */
export interface PdfTextRun {
  str: string;
  /** The text matrix [a, b, c, d, e, f]: e/f are x/y of the baseline origin (y grows upwards). */
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
  /** pdf.js's name for the run's font (a key of the text content's `styles`). */
  fontName?: string;
}

export interface PdfLine {
  text: string;
  /** Baseline y (PDF user space, grows upwards). */
  y: number;
  /** Font size estimate. */
  size: number;
}

function runSize(run: PdfTextRun): number {
  const [a = 0, b = 0, c = 0, d = 0] = run.transform;
  const fromMatrix = Math.max(Math.hypot(a, b), Math.hypot(c, d));
  return run.height > 0 ? run.height : fromMatrix;
}

export const isCjk = (ch: string | undefined): boolean =>
  !!ch && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(ch);

/** Joins text runs into lines. */
export function runsToLines(runs: PdfTextRun[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let text = '';
  let y = 0;
  let size = 0;
  let endX = 0;
  let open = false;
  const push = (): void => {
    if (open && text.trim()) lines.push({ text, y, size });
    text = '';
    size = 0;
    open = false;
  };
  for (const run of runs) {
    const x = run.transform[4] ?? 0;
    const ry = run.transform[5] ?? 0;
    const rsize = runSize(run);
    if (run.str.length > 0) {
      if (open) {
        const tolerance = Math.max(size, rsize, 1) * 0.5;
        if (Math.abs(ry - y) > tolerance) push();
        else {
          // Same line: a visible horizontal gap means a word boundary pdf.js did not encode as a space.
          const gap = x - endX;
          const last = text.at(-1);
          const first = run.str[0];
          const needsSpace = gap > Math.max(rsize, 1) * 0.2 && last !== ' ' && first !== ' ' && !(isCjk(last) && isCjk(first));
          if (needsSpace) text += ' ';
        }
      }
      if (!open) {
        open = true;
        y = ry;
      }
      text += run.str;
      size = Math.max(size, rsize);
      endX = x + run.width;
    }
    if (run.hasEOL) push();
  }
  push();
  return lines;
}

export interface PdfParagraph {
  text: string;
  /** Largest font size in the paragraph. */
  size: number;
  lines: number;
}

/**
 * Groups lines into paragraphs: a gap well beyond the line spacing, a jump upwards (a new column) or a change
 * of font size (a heading above body text) starts a new one.
 */
export function linesToParagraphs(lines: PdfLine[]): PdfParagraph[] {
  const paragraphs: PdfParagraph[] = [];
  let current: PdfLine[] = [];
  const close = (): void => {
    if (current.length === 0) return;
    paragraphs.push({ text: current.map((l) => l.text).join('\n'), size: Math.max(...current.map((l) => l.size)), lines: current.length });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const prev = lines[i - 1];
    if (prev && current.length > 0) {
      const gap = prev.y - line.y;
      const size = Math.max(prev.size, line.size, 1);
      const sizeChange = Math.abs(prev.size - line.size) > size * 0.15;
      if (gap > size * 1.5 || gap < -size * 0.5 || sizeChange) close();
    }
    current.push(line);
  }
  close();
  return paragraphs;
}

/**
 * Marks headings: short paragraphs set clearly larger than the body text (the most common size, weighted by
 * lines). Heading levels follow the distinct heading sizes, largest first (at most six).
 */
export function headingLevels(paragraphs: PdfParagraph[]): (number | undefined)[] {
  const weight = new Map<number, number>();
  for (const p of paragraphs) {
    const key = Math.round(p.size * 2) / 2;
    weight.set(key, (weight.get(key) ?? 0) + p.lines * p.text.length);
  }
  let body = 0;
  let best = -1;
  for (const [size, w] of weight) if (w > best) [body, best] = [size, w];
  const isHeading = (p: PdfParagraph): boolean => body > 0 && p.size >= body * 1.15 && p.lines <= 3 && p.text.length <= 200;
  const sizes = [...new Set(paragraphs.filter(isHeading).map((p) => Math.round(p.size * 2) / 2))].sort((a, b) => b - a);
  return paragraphs.map((p) => (isHeading(p) ? Math.min(sizes.indexOf(Math.round(p.size * 2) / 2) + 1, 6) : undefined));
}
