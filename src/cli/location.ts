import type { Location } from '../shared/contract/index.js';

/** A chunk's place in its source for people: "p.2", "pp.1-3", the heading path, "lines 10-24". */
export function describeLocation(loc: Location): string {
  const parts: string[] = [];
  if (loc.page) parts.push(loc.page_end && loc.page_end > loc.page ? `pp.${loc.page}-${loc.page_end}` : `p.${loc.page}`);
  if (loc.heading_path?.length) parts.push(loc.heading_path.join(' › '));
  if (loc.line_start) {
    const end = loc.line_end ?? loc.line_start;
    parts.push(end !== loc.line_start ? `lines ${loc.line_start}-${end}` : `line ${loc.line_start}`);
  }
  return parts.join('  ');
}
