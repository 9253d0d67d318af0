import { BrowserWindow, shell, type WebContents } from 'electron';
import { pathToFileURL } from 'node:url';
import type { AppPaths } from './app-paths.js';

/** The renderer's CSP, also sent as a header (the page carries the same one in a meta tag). */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

/** Only our own page may load in a window: no navigation elsewhere, no new windows, no webviews. */
export function hardenContents(contents: WebContents, rendererUrl: string): void {
  const own = (url: string) => url.split('#')[0] === rendererUrl;
  contents.on('will-navigate', (event, url) => {
    if (!own(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!own(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    // Links to documentation open in the system browser; nothing opens inside the app.
    if (/^https:\/\//i.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

export function createMainWindow(paths: AppPaths, options: { show: boolean; icon?: string }): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'ragdesk',
    autoHideMenuBar: true,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: process.env.RAGDESK_DEVTOOLS === '1',
    },
  });
  // Navigation, new windows and webviews are blocked for every web contents (desktop.ts: hardenContents).
  const rendererUrl = pathToFileURL(paths.rendererHtml).href;
  win.once('ready-to-show', () => {
    if (options.show) win.show();
  });
  void win.loadURL(rendererUrl);
  return win;
}
