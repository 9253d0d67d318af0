import http from 'node:http';
import type { Transport } from '../shared/contract/index.js';
import { fromErrorEnvelope, isErrorCode, RagError } from '../shared/errors.js';

/** The live process that owns a data dir, as its lock file describes it. */
export interface OwnerAddress {
  pid: number;
  host: string;
  port: number;
  token: string;
}

/** An owner that could not be reached at all: the request never arrived, so it is safe to try another way. */
export class OwnerUnreachable extends RagError {
  constructor(owner: OwnerAddress, cause: unknown) {
    super('busy', `cannot reach the ragdesk process (pid ${owner.pid}) that owns the data dir on port ${owner.port}`, {
      cause,
      details: { pid: owner.pid, port: owner.port },
    });
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EADDRNOTAVAIL', 'EHOSTUNREACH']);

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * `POST /api/<method>` to the owner of the data dir with its lock token: the contract over node:http (no response
 * timeout: adding a big folder is one long call; progress comes from `getProgress` meanwhile). Errors come back as
 * the owner's RagErrors; an owner that cannot be reached is `OwnerUnreachable`.
 */
export function ownerTransport(owner: OwnerAddress): { call: Transport; close(): void; health(): Promise<{ pid: number }> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const base = { host: owner.host, port: owner.port, agent };

  function request(method: 'GET' | 'POST', pathname: string, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          ...base,
          method,
          path: pathname,
          headers: {
            host: `${hostForUrl(owner.host)}:${owner.port}`,
            authorization: `Bearer ${owner.token}`,
            ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        reject(UNREACHABLE.has(err.code ?? '') ? new OwnerUnreachable(owner, err) : err);
      });
      req.end(body);
    });
  }

  const call: Transport = async (method, input) => {
    let res: { status: number; text: string };
    try {
      res = await request('POST', `/api/${encodeURIComponent(method)}`, JSON.stringify(input ?? {}));
    } catch (err) {
      if (err instanceof RagError) throw err;
      throw new RagError('internal', `the ragdesk process (pid ${owner.pid}) that owns the data dir went away during ${method}`, {
        cause: err,
      });
    }
    let body: unknown;
    try {
      body = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      body = undefined;
    }
    // Success is the status: a result may well have an `error` field of its own (a model change's last error).
    if (res.status >= 200 && res.status < 300) return body;
    const envelope = body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : undefined;
    if (envelope && typeof envelope === 'object' && isErrorCode((envelope as { code?: unknown }).code)) {
      throw fromErrorEnvelope(envelope as Parameters<typeof fromErrorEnvelope>[0]);
    }
    throw new RagError('internal', `the owner of the data dir answered HTTP ${res.status} to ${method}`);
  };

  return {
    call,
    close: () => agent.destroy(),
    async health() {
      const res = await request('GET', '/health');
      if (res.status !== 200) throw new OwnerUnreachable(owner, new Error(`/health answered ${res.status}`));
      return JSON.parse(res.text) as { pid: number };
    },
  };
}
