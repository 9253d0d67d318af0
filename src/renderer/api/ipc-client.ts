import { clientOf, ragClient, type RagClient, type Transport } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { desktopContract, type DesktopBridge, type DesktopClient } from '../../shared/desktop.js';
import { errorFromEnvelope } from './errors.js';

/** The object the preload puts on `window.ragdesk` (one IPC channel, contract methods only). */
export function desktopBridge(): DesktopBridge | undefined {
  const candidate = (globalThis as { ragdesk?: unknown }).ragdesk;
  if (candidate && typeof candidate === 'object' && typeof (candidate as DesktopBridge).invoke === 'function')
    return candidate as DesktopBridge;
  return undefined;
}

/** One call over the preload bridge; main answers `{ok, result}` or `{ok:false, error}` envelopes. */
function bridgeTransport(bridge: DesktopBridge): Transport {
  return async (method, input) => {
    let reply: Awaited<ReturnType<DesktopBridge['invoke']>>;
    try {
      reply = await bridge.invoke(method, input);
    } catch (err) {
      throw new RagError('internal', `the desktop app did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!reply.ok) throw errorFromEnvelope(reply.error);
    return reply.result;
  };
}

/** A RagClient over the preload bridge. */
export function createIpcClient(bridge: DesktopBridge): RagClient {
  return ragClient(bridgeTransport(bridge));
}

/** The desktop-only operations (settings, server status) over the same bridge. */
export function createDesktopClient(bridge: DesktopBridge): DesktopClient {
  return clientOf(desktopContract, bridgeTransport(bridge));
}
