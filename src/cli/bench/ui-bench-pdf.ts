/**
 * A plain multi-page PDF (Helvetica text, no dependencies) for the UI benchmark: `pages` pages of prose, one
 * marker word on the last page so a search can tell when the document became searchable.
 */
const WORDS = (
  'shipment invoice customs broker tariff container vessel warehouse inventory pallet carrier freight route delivery ' +
  'schedule inspection clearance declaration origin duty tax packing label barcode supplier order return refund policy ' +
  'manual procedure section appendix table figure chapter summary overview'
).split(' ');

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

function pageText(page: number, lines: number, seed: number): string[] {
  let x = seed + page * 7919;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  const out = [`Chapter ${page}: Logistics procedures, part ${page}`];
  for (let i = 0; i < lines; i++) {
    const n = 10 + (next() % 4);
    const words = Array.from({ length: n }, () => WORDS[next() % WORDS.length]!);
    out.push(`${words.join(' ')}.`);
  }
  return out;
}

export function makeBenchPdf(pages = 20, marker = 'quokkaberry', linesPerPage = 40): Buffer {
  const objects: string[] = [];
  // Object numbers start at 1: push() answers the new length, which is the object's number.
  const add = (body: string) => objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const pagesObj = add(''); // /Pages, filled in once the kids are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (let p = 1; p <= pages; p++) {
    const lines = pageText(p, linesPerPage, 42);
    if (p === pages) lines.push(`The ${marker} clause closes this manual.`);
    const ops = ['BT', '/F1 10 Tf', '12 TL', '50 760 Td', ...lines.map((l) => `(${escapePdf(l)}) '`), 'ET'].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`),
    );
  }
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
