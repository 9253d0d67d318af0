import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, type Route } from './router.js';

describe('hash routes', () => {
  it('round-trips every screen, including a document at a chunk', () => {
    const routes: Route[] = [
      { name: 'kbs' },
      { name: 'kb', kbId: 'handbook' },
      { name: 'kb', kbId: 'handbook', docId: 'folder/a b.md' },
      { name: 'kb', kbId: 'handbook', docId: 'x.pdf', chunk: 7 },
      { name: 'search' },
      { name: 'activity' },
      { name: 'connect' },
      { name: 'settings' },
    ];
    for (const r of routes) expect(parseRoute(routeHref(r))).toEqual(r);
  });

  it('falls back to the KB list for anything else', () => {
    expect(parseRoute('')).toEqual({ name: 'kbs' });
    expect(parseRoute('#/nope')).toEqual({ name: 'kbs' });
    expect(parseRoute('#/kb/x/doc/y?chunk=-1')).toEqual({ name: 'kb', kbId: 'x', docId: 'y' });
  });
});
