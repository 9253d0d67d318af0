import fs from 'node:fs';
import path from 'node:path';

/** Where the built pieces are, from the app's root (the project folder in development, app.asar when packaged). */
export interface AppPaths {
  root: string;
  rendererHtml: string;
  preload: string;
  embedWorker: string;
  mainEntry: string;
  /** `resources/` of the project in development; process.resourcesPath when packaged. */
  resources: string;
}

export function appPaths(appRoot: string, resourcesPath?: string): AppPaths {
  const packagedResources = resourcesPath && fs.existsSync(path.join(resourcesPath, 'tray')) ? resourcesPath : undefined;
  return {
    root: appRoot,
    rendererHtml: path.join(appRoot, 'out', 'renderer', 'index.html'),
    preload: path.join(appRoot, 'out', 'preload', 'index.cjs'),
    embedWorker: path.join(appRoot, 'out', 'main', 'embed-worker.js'),
    mainEntry: path.join(appRoot, 'out', 'main', 'index.js'),
    resources: packagedResources ?? path.join(appRoot, 'resources'),
  };
}
