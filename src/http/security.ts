import os from 'node:os';

/** Hosts that always mean this machine. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]', '::1'];

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';

/** Bracket a bare IPv6 address for use in a Host header or URL. */
export function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The Host header values accepted (DNS-rebinding protection): loopback names, the bound address, every local
 * interface address when bound to all interfaces, and any extra names configured — each with the port.
 */
export function allowedHostHeaders(bindHost: string, port: number, extra: string[] = []): Set<string> {
  const names = new Set<string>([...LOOPBACK_NAMES, ...extra]);
  if (isWildcard(bindHost)) {
    for (const addrs of Object.values(os.networkInterfaces())) for (const a of addrs ?? []) names.add(hostForUrl(a.address));
    names.add(os.hostname());
  } else names.add(hostForUrl(bindHost));
  const out = new Set<string>();
  for (const n of names) {
    const h = hostForUrl(n).toLowerCase();
    out.add(`${h}:${port}`);
    if (port === 80) out.add(h);
  }
  return out;
}

/** Origins a browser may call from: this server's own pages (and any configured extra origin). Never `*`. */
export function allowedOrigins(hostHeaders: Set<string>, extra: string[] = []): Set<string> {
  const out = new Set<string>(extra.map((o) => o.toLowerCase().replace(/\/+$/, '')));
  for (const h of hostHeaders) out.add(`http://${h}`);
  return out;
}

/** Headers for every response of the web console and the API. */
export const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The console is self-contained: scripts, styles, fonts and calls only from this origin (Mantine needs inline styles). */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
