import { METHOD_NAMES, type RagClient } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { DESKTOP_METHOD_NAMES, type DesktopBridge, type DesktopClient } from '../../shared/desktop.js';
import { errorFromEnvelope } from './errors.js';

/** The object the preload puts on `window.ragdesk` (one IPC channel, contract methods only). */
export function desktopBridge(): DesktopBridge | undefined {
  const candidate = (globalThis as { ragdesk?: unknown }).ragdesk;
  if (candidate && typeof candidate === 'object' && typeof (candidate as DesktopBridge).invoke === 'function')
    return candidate as DesktopBridge;
  return undefined;
}

/** A RagClient over the preload bridge; main answers `{ok, result}` or `{ok:false, error}` envelopes. */
export function createIpcClient(bridge: DesktopBridge): RagClient {
  const client: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of METHOD_NAMES) {
    client[name] = async (input: unknown) => {
      let reply: Awaited<ReturnType<DesktopBridge['invoke']>>;
      try {
        reply = await bridge.invoke(name, input ?? {});
      } catch (err) {
        throw new RagError('internal', `the desktop app did not answer: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!reply.ok) throw errorFromEnvelope(reply.error);
      return reply.result;
    };
  }
  return client as unknown as RagClient;
}

/** The desktop-only operations (settings, server status) over the same bridge. */
export function createDesktopClient(bridge: DesktopBridge): DesktopClient {
  const client: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of DESKTOP_METHOD_NAMES) {
    client[name] = async (input: unknown) => {
      const reply = await bridge.invoke(name, input ?? {});
      if (!reply.ok) throw errorFromEnvelope(reply.error);
      return reply.result;
    };
  }
  return client as unknown as DesktopClient;
}
