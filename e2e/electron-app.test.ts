import fs from 'node:fs';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureElectron } from '../scripts/electron-binary.js';
import { buildFixtureModel } from '../src/core/embed/fixture-model.js';
import type { AppInfo, IpcReply } from '../src/shared/desktop.js';
import {
  apiKeys,
  badFileAndXss,
  commitAll,
  createKb,
  dropAndPreview,
  kbListAndKeyboard,
  nav,
  openChunkViewer,
  searchAndOpen,
} from './ui-flows.js';
import { ensureConsoleBuilt, ROOT, tempDir } from './ui-support.js';

/**
 * The desktop app through Playwright's Electron support: the same flows as the web console suite, over IPC
 * instead of HTTP, plus the window's security. It needs the Electron binary, which `npm ci` does not download
 * (package.json's allowScripts denies electron's install script): it is fetched here on first use, as `npm start`
 * does, and the suite skips, saying why, where that is impossible.
 */
const binary = await ensureElectron(ROOT);
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const skipReason = !binary.path
  ? `no Electron binary: ${binary.why}, so the desktop app cannot be launched here. The same flows run against the web console in e2e/ui-console.test.ts.`
  : noDisplay
    ? 'no display for Electron on this Linux machine: run the suite under xvfb-run (e.g. xvfb-run -a npx vitest run e2e/electron-app.test.ts)'
    : undefined;

if (skipReason) {
  describe('desktop app (Electron)', () => {
    it.skip(`skipped: ${skipReason}`, () => undefined);
  });
} else {
  describe('desktop app (Electron)', () => {
    let dir: string;
    let modelDir: string;
    let app: ElectronApplication;
    let page: Page;
    const dialogs: string[] = [];
    const invoke = (method: string, input: unknown) =>
      page.evaluate(
        ([m, i]) => (window as unknown as { ragdesk: { invoke(m: string, i: unknown): Promise<IpcReply> } }).ragdesk.invoke(m as string, i),
        [method, input] as const,
      );

    beforeAll(async () => {
      ensureConsoleBuilt();
      dir = tempDir('ragdesk-electron-');
      modelDir = (await buildFixtureModel(path.join(dir, 'fixture-model'))).dir;
      // Settings live in the OS app-data dir: point it (and HOME) at the temp dir; the server takes any free port.
      const config = path.join(dir, 'config');
      fs.mkdirSync(path.join(config, 'ragdesk'), { recursive: true });
      fs.writeFileSync(
        path.join(config, 'ragdesk', 'settings.json'),
        JSON.stringify({ server: { enabled: true, port: 0 }, closeToTray: false }),
      );
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
      Object.assign(env, {
        HOME: dir,
        XDG_CONFIG_HOME: config,
        APPDATA: config,
        RAGDESK_DATA_DIR: path.join(dir, 'data'),
        RAGDESK_OFFLINE: '1',
        HF_HUB_OFFLINE: '1',
      });
      const args = [ROOT, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])];
      app = await _electron.launch({ executablePath: binary.path!, args, env, cwd: ROOT, timeout: 60_000 });
      page = await app.firstWindow();
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.setViewportSize({ width: 1360, height: 900 });
      await page.getByRole('heading', { name: 'Knowledge bases' }).waitFor({ timeout: 60_000 });
    }, 180_000);

    afterAll(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('opens on the KB list over IPC, with no sign-in', async () => {
      await page.getByText('No knowledge bases yet').waitFor();
      expect(await page.getByText('desktop', { exact: true }).count()).toBe(1);
    });

    it('exposes only the contract over one bridge: no Node, no ipcRenderer, input re-validated in main', async () => {
      expect(
        await page.evaluate(() => [
          typeof (window as unknown as { require?: unknown }).require,
          typeof (window as unknown as { process?: unknown }).process,
        ]),
      ).toEqual(['undefined', 'undefined']);
      expect(await page.evaluate(() => Object.keys((window as unknown as { ragdesk: object }).ragdesk).sort())).toEqual([
        'invoke',
        'methods',
      ]);
      expect(await invoke('dropEverything', {})).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
      expect(await invoke('search', { query: '', top_k: 500 })).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
      expect(await invoke('deleteKb', { kb_id: '../x' })).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
      expect(await invoke('listKbs', {})).toEqual({ ok: true, result: [] });
    });

    it('blocks navigation away and new windows', async () => {
      const before = page.url();
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      await page.waitForTimeout(500);
      expect(page.url()).toBe(before);
      expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);
      expect(app.windows()).toHaveLength(1);
    });

    it('creates a KB, previews and adds files with progress, and opens the chunk viewer', async () => {
      await createKb(page, modelDir);
      await dropAndPreview(page);
      await commitAll(page);
      await openChunkViewer(page);
    });

    it('keeps going past a broken file and renders the XSS documents as text', () => badFileAndXss(page));
    it('searches and opens a hit at its chunk', () => searchAndOpen(page));

    it('creates and revokes an API key that works against the app’s own server', async () => {
      const info = (await invoke('appInfo', {})) as { ok: true; result: AppInfo };
      expect(info.result.server.running).toBe(true);
      const url = info.result.server.url!;
      const status = async (key: string) =>
        (
          await fetch(`${url}/api/listKbs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: '{}',
          })
        ).status;
      await apiKeys(page, { status });
    });

    it('shows the bundled MCP launcher by its absolute path in the agent configs', async () => {
      await nav(page, 'Connect an agent');
      const claude = JSON.parse(await page.getByTestId('config-claude-desktop').getByTestId('copy-value').innerText());
      const launcher = path.join(ROOT, 'resources', 'bin', process.platform === 'win32' ? 'ragdesk-mcp.cmd' : 'ragdesk-mcp');
      expect(claude.mcpServers.ragdesk.command).toBe(launcher);
      expect(claude.mcpServers.ragdesk.env).toBeUndefined();
    });

    it('lists KBs and works from the keyboard; nothing opened a dialog', async () => {
      await kbListAndKeyboard(page);
      expect(dialogs).toEqual([]);
    });
  });
}
