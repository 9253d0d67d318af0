import { Parser } from 'htmlparser2';
import { withLinearStack } from '../linear-stack.js';

/**
 * Streaming XML for the office formats (OOXML, ODF, EPUB packaging): htmlparser2 in XML mode, linear in the input,
 * entities decoded, element names as written (with their prefix, e.g. `w:p`, `table:table-cell`).
 */
export interface XmlHandlers {
  open?(name: string, attrs: Record<string, string>): void;
  close?(name: string): void;
  text?(data: string): void;
}

export function walkXml(xml: string, handlers: XmlHandlers): void {
  const parser = withLinearStack(
    new Parser(
      {
        ...(handlers.open ? { onopentag: handlers.open } : {}),
        ...(handlers.close ? { onclosetag: handlers.close } : {}),
        ...(handlers.text ? { ontext: handlers.text } : {}),
      },
      { xmlMode: true, decodeEntities: true },
    ),
  );
  parser.write(xml);
  parser.end();
}

/** The text of every element named `name` (its descendants' text concatenated), in document order. */
export function textsOf(xml: string, name: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let buf = '';
  walkXml(xml, {
    open: (n) => {
      if (n === name) {
        if (depth === 0) buf = '';
        depth++;
      }
    },
    close: (n) => {
      if (n === name && depth > 0 && --depth === 0) out.push(buf);
    },
    text: (d) => {
      if (depth > 0) buf += d;
    },
  });
  return out;
}

/** The local part of a prefixed name: `w:t` → `t`. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i === -1 ? name : name.slice(i + 1);
}

/** Resolves a relationship target against the part that refers to it (`xl/workbook.xml` + `worksheets/s1.xml`). */
export function resolvePart(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** Relationship id → target part for an OOXML part (`ppt/slides/slide1.xml` → `ppt/slides/_rels/slide1.xml.rels`). */
export function readRels(readText: (name: string) => string | undefined, part: string): Map<string, { target: string; type: string }> {
  const slash = part.lastIndexOf('/');
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const rels = new Map<string, { target: string; type: string }>();
  const xml = readText(relsName);
  if (!xml) return rels;
  walkXml(xml, {
    open: (n, a) => {
      if (localName(n) === 'Relationship' && a.Id && a.Target && a.TargetMode !== 'External') {
        rels.set(a.Id, { target: resolvePart(part, a.Target), type: a.Type ?? '' });
      }
    },
  });
  return rels;
}
