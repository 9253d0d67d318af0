import { useEffect, useState } from 'react';

/** Screens of the app, addressed by the URL hash so the browser's back button and reloads work. */
export type Route =
  | { name: 'kbs' }
  | { name: 'kb'; kbId: string; docId?: string; chunk?: number }
  | { name: 'search' }
  | { name: 'activity' }
  | { name: 'connect' }
  | { name: 'settings' };

export function parseRoute(hash: string): Route {
  const [pathPart = '', queryPart = ''] = hash.replace(/^#/, '').split('?');
  const parts = pathPart
    .split('/')
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  const query = new URLSearchParams(queryPart);
  switch (parts[0]) {
    case 'kb': {
      if (!parts[1]) return { name: 'kbs' };
      const route: Route = { name: 'kb', kbId: parts[1] };
      if (parts[2] === 'doc' && parts[3]) {
        route.docId = parts[3];
        const chunk = Number(query.get('chunk'));
        if (query.has('chunk') && Number.isInteger(chunk) && chunk >= 0) route.chunk = chunk;
      }
      return route;
    }
    case 'search':
    case 'activity':
    case 'connect':
    case 'settings':
      return { name: parts[0] };
    default:
      return { name: 'kbs' };
  }
}

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'kbs':
      return '#/';
    case 'kb': {
      let href = `#/kb/${encodeURIComponent(route.kbId)}`;
      if (route.docId) href += `/doc/${encodeURIComponent(route.docId)}${route.chunk !== undefined ? `?chunk=${route.chunk}` : ''}`;
      return href;
    }
    default:
      return `#/${route.name}`;
  }
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
