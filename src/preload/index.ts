import { contextBridge, ipcRenderer } from 'electron';
import { METHOD_NAMES } from '../shared/contract/index.js';
import { DESKTOP_METHOD_NAMES, IPC_CHANNEL, type DesktopBridge, type IpcReply } from '../shared/desktop.js';

/**
 * The renderer's only door to main: `window.ragdesk = { methods, invoke(method, input) }`, built from the
 * contract's method names (and the desktop app's own operations), over one IPC channel. No ipcRenderer, no Node.
 * Main re-validates everything; this check only keeps other names from ever reaching the channel.
 */
const methods: readonly string[] = Object.freeze([...METHOD_NAMES, ...DESKTOP_METHOD_NAMES]);
const allowed = new Set(methods);

const bridge: DesktopBridge = {
  methods,
  invoke(method: string, input: unknown): Promise<IpcReply> {
    if (typeof method !== 'string' || !allowed.has(method)) {
      return Promise.resolve({ ok: false, error: { code: 'invalid_parameter', message: `unknown method "${String(method)}"` } });
    }
    return ipcRenderer.invoke(IPC_CHANNEL, method, input) as Promise<IpcReply>;
  },
};

contextBridge.exposeInMainWorld('ragdesk', bridge);
