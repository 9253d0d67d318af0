import fs from 'node:fs';
import path from 'node:path';

/**
 * What the app reads from its resources folder (`resources/` of the project in development, process.resourcesPath
 * when packaged, where electron-builder's extraResources puts them). electron-builder.config.mjs ships these, and
 * a test checks that it does.
 */
export const RESOURCE_FILES = {
  icon: 'icon.png',
  /** Tray icons by state; macOS uses the template image for the normal state. Electron picks `@2x` variants itself. */
  tray: { normal: 'tray/tray.png', macNormal: 'tray/trayTemplate.png', paused: 'tray/tray-paused.png', error: 'tray/tray-error.png' },
  /** The bundled MCP launcher (see resources/bin/ragdesk-mcp). */
  launcher: { posix: 'bin/ragdesk-mcp', win32: 'bin/ragdesk-mcp.cmd' },
} as const;

/** Where the built pieces are, from the app's root (the project folder in development, app.asar when packaged). */
export interface AppPaths {
  root: string;
  rendererHtml: string;
  preload: string;
  embedWorker: string;
  mainEntry: string;
  /** `resources/` of the project in development; process.resourcesPath when packaged. */
  resources: string;
  /** The MCP launcher for this OS inside `resources`, when it is there. */
  launcher?: string;
  /** The AppImage file this app runs from (Linux AppImage only: its own files live in a mount that moves). */
  appImage?: string;
}

export function launcherPath(resources: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(resources, platform === 'win32' ? RESOURCE_FILES.launcher.win32 : RESOURCE_FILES.launcher.posix);
}

export function appPaths(
  appRoot: string,
  resourcesPath?: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): AppPaths {
  const packagedResources = resourcesPath && fs.existsSync(path.join(resourcesPath, 'tray')) ? resourcesPath : undefined;
  const resources = packagedResources ?? path.join(appRoot, 'resources');
  const launcher = launcherPath(resources, platform);
  return {
    root: appRoot,
    rendererHtml: path.join(appRoot, 'out', 'renderer', 'index.html'),
    preload: path.join(appRoot, 'out', 'preload', 'index.cjs'),
    embedWorker: path.join(appRoot, 'out', 'main', 'embed-worker.js'),
    mainEntry: path.join(appRoot, 'out', 'main', 'index.js'),
    resources,
    ...(fs.existsSync(launcher) ? { launcher } : {}),
    ...(platform === 'linux' && env.APPIMAGE ? { appImage: env.APPIMAGE } : {}),
  };
}

/** How to start this app again (launch at login): the AppImage file when there is one, else the executable. */
export function relaunchCommand(
  paths: Pick<AppPaths, 'root' | 'appImage'>,
  execPath: string,
  packaged: boolean,
): { command: string; args: string[] } {
  if (paths.appImage) return { command: paths.appImage, args: [] };
  return { command: execPath, args: packaged ? [] : [paths.root] };
}
