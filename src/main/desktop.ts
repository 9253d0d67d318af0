import { app, dialog, session } from 'electron';
import { pathToFileURL } from 'node:url';
import { OWNER_SCOPE } from '../core/auth/scope.js';
import { watchParent } from '../core/util/parent-watch.js';
import { toErrorEnvelope } from '../shared/errors.js';
import { appPaths } from './app-paths.js';
import type { DesktopArgs } from './argv.js';
import { AppController } from './controller.js';
import { registerIpc } from './ipc.js';
import { createIpcBridge, desktopDispatcher } from './ipc-bridge.js';
import { openElectronSettings } from './electron-settings.js';
import { appLanguage } from './i18n/system-languages.js';
import { mainText } from './i18n/text.js';
import { hardenContents, RENDERER_CSP } from './window.js';

/** Lock down every web contents and the default session before any window opens. */
function secureSession(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [RENDERER_CSP] } });
  });
  // The UI needs no camera, microphone, notifications or geolocation; clipboard writes need no permission.
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
  session.defaultSession.setPermissionCheckHandler((_wc, permission) => permission === 'clipboard-sanitized-write');
}

/** The desktop app: one instance, Core + local server + tray, the window over IPC. */
export async function startDesktop(args: DesktopArgs): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  let controller: AppController | null = null;
  const paths = appPaths(app.getAppPath(), process.resourcesPath);
  app.on('second-instance', () => controller?.showWindow());
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, pathToFileURL(paths.rendererHtml).href));

  await app.whenReady();
  secureSession();
  const settings = openElectronSettings();
  try {
    controller = await AppController.open(settings, paths);
  } catch (err) {
    const env = toErrorEnvelope(err);
    const lang = appLanguage(settings.get().language);
    dialog.showErrorBox(
      mainText(lang, 'dialogCannotStart'),
      env.code === 'busy' ? `${env.message}\n\n${mainText(lang, 'dialogCannotStartBusy')}` : env.message,
    );
    app.exit(1);
    return;
  }
  const c = controller;
  const desktop = desktopDispatcher(c.handlers(), () => c.core.logInternalError);
  const dispatch = (method: string, input: unknown) => c.core.dispatch(method, input, OWNER_SCOPE);
  registerIpc(paths.rendererHtml, createIpcBridge({ dispatch, desktop }));

  const s = settings.get();
  const atLogin = args.hidden || app.getLoginItemSettings().wasOpenedAtLogin;
  await c.start({ hidden: atLogin && s.startHidden });

  app.on('activate', () => c.showWindow());
  // Started by `npm start` (scripts/start.js): quit (stopping the server) when that process is gone, however it went.
  watchParent(() => app.quit());
  // With the tray, closing the last window keeps the app (and its server) running.
  app.on('window-all-closed', () => {
    if (!settings.get().closeToTray) app.quit();
  });
  let closing = false;
  app.on('before-quit', (event) => {
    c.markQuitting();
    if (closing) return;
    event.preventDefault();
    closing = true;
    void c.shutdown().finally(() => app.exit(0));
  });
}
