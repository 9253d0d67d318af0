/**
 * One file over HTTP(S) into memory, with progress, a size cap, and a stall timeout (a connection that stops
 * sending for `stallMs` is dropped rather than hanging an ingestion job forever).
 */
export interface DownloadProgress {
  received: number;
  /** From Content-Length; undefined when the server does not say. */
  total?: number;
  /** received / total, thinned to 1% steps; undefined without a total. */
  fraction?: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** Largest body accepted (default 256 MB: the biggest traineddata is ~50 MB). */
  maxBytes?: number;
  /** Give up when nothing arrives for this long (default 60 s). */
  stallMs?: number;
}

export async function downloadBytes(url: string, options: DownloadOptions = {}): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? 256 * 1024 * 1024;
  const stallMs = options.stallMs ?? 60_000;
  const stall = new AbortController();
  let timer = setTimeout(() => stall.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(new Error(`no data for ${stallMs / 1000} s`)), stallMs);
  };
  const signal = options.signal ? AbortSignal.any([options.signal, stall.signal]) : stall.signal;
  try {
    const res = await fetch(url, { signal, redirect: 'follow' });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
    // With a Content-Encoding, fetch inflates the body and Content-Length counts the compressed bytes.
    const declared = res.headers.get('content-encoding') ? NaN : Number(res.headers.get('content-length'));
    const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
    if (total !== undefined && total > maxBytes) throw new Error(`the file is ${total} bytes; the limit is ${maxBytes}`);
    const parts: Uint8Array[] = [];
    let received = 0;
    let lastSent = -1;
    options.onProgress?.({ received: 0, ...(total ? { total, fraction: 0 } : {}) });
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rearm();
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new Error(`the file is over the limit of ${maxBytes} bytes`);
      }
      parts.push(value);
      if (total && options.onProgress) {
        const fraction = Math.min(1, received / total);
        if (fraction - lastSent >= 0.01 || fraction === 1) {
          lastSent = fraction;
          options.onProgress({ received, total, fraction });
        }
      }
    }
    if (total !== undefined && received !== total) throw new Error(`the download was cut off (${received} of ${total} bytes)`);
    const out = new Uint8Array(received);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  } catch (err) {
    if (stall.signal.aborted && !options.signal?.aborted) throw stall.signal.reason as Error;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
