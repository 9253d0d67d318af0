import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { pathToFileURL } from 'node:url';
import { IPC_CHANNEL, type IpcReply } from '../shared/desktop.js';

/**
 * Register the one IPC channel. Only our own page (the renderer file, any hash) may call; the handler itself is
 * the pure bridge (ipc-bridge.ts), which re-validates every input with the contract's schema.
 */
export function registerIpc(rendererHtml: string, handle: (method: unknown, input: unknown) => Promise<IpcReply>): () => void {
  const own = pathToFileURL(rendererHtml).href;
  ipcMain.handle(IPC_CHANNEL, async (event: IpcMainInvokeEvent, method: unknown, input: unknown): Promise<IpcReply> => {
    const url = event.senderFrame?.url ?? '';
    if (url.split('#')[0] !== own) {
      return { ok: false, error: { code: 'permission_denied', message: 'IPC is only answered for the ragdesk window' } };
    }
    return handle(method, input);
  });
  return () => ipcMain.removeHandler(IPC_CHANNEL);
}
