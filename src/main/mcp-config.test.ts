import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appPaths, launcherPath, relaunchCommand } from './app-paths.js';
import { claudeDesktopConfig, stdioCommand } from './mcp-config.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-paths-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A packaged app's layout on disk: resources/ (tray, bin/ launchers, app.asar) next to the executable. */
function packagedLayout(name: string): { exe: string; resources: string; asar: string } {
  const root = path.join(tmp, name);
  const resources = path.join(root, 'resources');
  fs.mkdirSync(path.join(resources, 'tray'), { recursive: true });
  fs.mkdirSync(path.join(resources, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(resources, 'bin', 'ragdesk-mcp'), '#!/bin/sh\n');
  fs.writeFileSync(path.join(resources, 'bin', 'ragdesk-mcp.cmd'), '@echo off\r\n');
  fs.writeFileSync(path.join(root, 'ragdesk'), '');
  return { exe: path.join(root, 'ragdesk'), resources, asar: path.join(resources, 'app.asar') };
}

describe('the stdio command the Connect page and the tray show', () => {
  it('names the packaged launcher by its absolute path (no env, no Node on PATH needed)', () => {
    const app = packagedLayout('linux-deb');
    const paths = appPaths(app.asar, app.resources, {}, 'linux');
    expect(paths.launcher).toBe(path.join(app.resources, 'bin', 'ragdesk-mcp'));
    const cmd = stdioCommand({ execPath: app.exe, mainEntry: paths.mainEntry, launcher: paths.launcher });
    expect(cmd).toEqual({ command: path.join(app.resources, 'bin', 'ragdesk-mcp'), args: [], env: {} });
    expect(path.isAbsolute(cmd.command)).toBe(true);
    expect(JSON.parse(claudeDesktopConfig(cmd))).toEqual({ mcpServers: { ragdesk: { command: cmd.command, args: [] } } });
  });

  it('uses the .cmd launcher on Windows and passes a non-default data dir along', () => {
    const app = packagedLayout('win');
    const paths = appPaths(app.asar, app.resources, {}, 'win32');
    expect(paths.launcher).toBe(path.join(app.resources, 'bin', 'ragdesk-mcp.cmd'));
    expect(stdioCommand({ execPath: app.exe, mainEntry: paths.mainEntry, launcher: paths.launcher, dataDir: 'D:\\kb' })).toEqual({
      command: path.join(app.resources, 'bin', 'ragdesk-mcp.cmd'),
      args: ['--data-dir', 'D:\\kb'],
      env: {},
    });
  });

  it('names the AppImage file itself on Linux AppImages, whose mount point changes every run', () => {
    const app = packagedLayout('appimage');
    const paths = appPaths(app.asar, app.resources, { APPIMAGE: '/home/u/Apps/ragdesk.AppImage' }, 'linux');
    expect(paths.appImage).toBe('/home/u/Apps/ragdesk.AppImage');
    expect(stdioCommand({ execPath: app.exe, mainEntry: paths.mainEntry, launcher: paths.launcher, appImage: paths.appImage })).toEqual({
      command: '/home/u/Apps/ragdesk.AppImage',
      args: ['--mcp-stdio'],
      env: {},
    });
    expect(appPaths(app.asar, app.resources, { APPIMAGE: '/x.AppImage' }, 'darwin').appImage).toBeUndefined();
    expect(relaunchCommand(paths, app.exe, true)).toEqual({ command: '/home/u/Apps/ragdesk.AppImage', args: [] });
  });

  it('in the project folder: the project’s launcher and resources; relaunching names the project', () => {
    const project = path.resolve(import.meta.dirname, '..', '..');
    const paths = appPaths(project, '/usr/lib/electron/resources', {}, 'linux');
    expect(paths.resources).toBe(path.join(project, 'resources'));
    expect(paths.launcher).toBe(launcherPath(path.join(project, 'resources'), 'linux'));
    expect(fs.statSync(paths.launcher!).mode & 0o111).not.toBe(0);
    expect(relaunchCommand(paths, '/p/node_modules/electron/dist/electron', false)).toEqual({
      command: '/p/node_modules/electron/dist/electron',
      args: [project],
    });
  });

  it('without a launcher on disk: the executable as Node running the main entry', () => {
    const paths = appPaths(path.join(tmp, 'nowhere'), undefined, {}, 'linux');
    expect(paths.launcher).toBeUndefined();
    expect(stdioCommand({ execPath: '/e/ragdesk', mainEntry: paths.mainEntry })).toEqual({
      command: '/e/ragdesk',
      args: [paths.mainEntry, '--mcp-stdio'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });
});
