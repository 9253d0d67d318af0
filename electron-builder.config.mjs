// electron-builder: the packaged desktop app (`npm run package`; scripts/package.js). Linux AppImage + deb,
// macOS dmg, Windows nsis. e2e/package-config.test.ts checks this file against what the runtime loads: every
// native module of the main process is shipped and unpacked from app.asar, every resource file the code reads is
// copied into the resources folder.

/** Native code cannot be loaded from inside app.asar: Node add-ons and the shared libraries they link. */
export const NATIVE_FILES = ['**/*.node', '**/*.so', '**/*.so.*', '**/*.dylib', '**/*.dll'];

/** onnxruntime-node ships its add-on for every OS (~290 MB); each package keeps its own OS's. */
function otherPlatforms(platform) {
  return ['darwin', 'linux', 'win32'].filter((p) => p !== platform).map((p) => `!node_modules/onnxruntime-node/bin/*/${p}/**`);
}

export default {
  appId: 'dev.ragdesk.desktop',
  productName: 'ragdesk',
  // The executable is `ragdesk` (ragdesk.exe, ragdesk.app/Contents/MacOS/ragdesk): resources/bin/ragdesk-mcp
  // finds it next to the resources folder.
  executableName: 'ragdesk',
  copyright: 'Copyright © 2026 the ragdesk contributors (MIT)',
  directories: { output: 'dist', buildResources: 'resources' },
  // The built app (main, preload, renderer, CLI, embedding worker) and package.json (its "main" is out/main/index.js);
  // production dependencies are added by electron-builder, devDependencies (React, Mantine, … bundled into
  // out/renderer) are not.
  files: ['out/**/*', 'package.json', '!out/**/*.map'],
  asar: true,
  asarUnpack: NATIVE_FILES,
  // LanceDB, onnxruntime, sharp and @napi-rs/canvas ship N-API prebuilds, which load in Electron as they are.
  npmRebuild: false,
  // No `electronFuses` here: the MCP launcher runs the app's executable with ELECTRON_RUN_AS_NODE=1, so the
  // RunAsNode fuse must stay on. The embedding and parse workers load from inside app.asar (Electron supports asar
  // in worker_threads); only native code is unpacked.
  // What the code reads from process.resourcesPath (src/main/app-paths.ts RESOURCE_FILES): the MCP launcher, the
  // tray icons and the window icon.
  extraResources: [
    { from: 'resources/bin', to: 'bin', filter: ['ragdesk-mcp', 'ragdesk-mcp.cmd'] },
    { from: 'resources/tray', to: 'tray', filter: ['*.png'] },
    { from: 'resources/icon.png', to: 'icon.png' },
  ],
  linux: {
    target: ['AppImage', 'deb'],
    files: otherPlatforms('linux'),
    category: 'Utility',
    icon: 'resources/icon-512.png',
    synopsis: 'Local knowledge bases for AI agents, served over MCP',
  },
  deb: { packageName: 'ragdesk' },
  mac: {
    target: ['dmg'],
    files: otherPlatforms('darwin'),
    category: 'public.app-category.productivity',
    icon: 'resources/icon-512.png',
  },
  win: { target: ['nsis'], icon: 'resources/icon-512.png', files: otherPlatforms('win32') },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};
