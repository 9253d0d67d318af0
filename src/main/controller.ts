import { app, clipboard, dialog, shell, type BrowserWindow } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { activityLogFor } from '../core/activity/activity-log.js';
import { dataPaths, defaultDataDir, resolveDataDir } from '../core/config/data-dir.js';
import { Core } from '../core/core.js';
import type { RagLogger } from '../core/logging/logger.js';
import { openTakingOver } from '../http/handover.js';
import { type AppInfo, type AppSettings, type AppSettingsPatch } from '../shared/desktop.js';
import { RAGDESK_VERSION } from '../shared/version.js';
import { openAppLog } from './app-log.js';
import { relaunchCommand, type AppPaths } from './app-paths.js';
import { applyLaunchAtLogin } from './autostart.js';
import { appLanguage, systemLanguages } from './i18n/system-languages.js';
import { mainText } from './i18n/text.js';
import type { DesktopHandlers } from './ipc-bridge.js';
import { claudeDesktopConfig, stdioCommand } from './mcp-config.js';
import { openActionFor } from './open-file.js';
import { LocalServer } from './server.js';
import type { SettingsStore } from './settings-store.js';
import { AppTray } from './tray.js';
import type { TrayAction, TrayState } from './tray-model.js';
import { createMainWindow } from './window.js';

/** Everything the app runs: Core, the local server, the tray, the window, and the settings that drive them. */
export class AppController {
  private window: BrowserWindow | null = null;
  private tray: AppTray | null = null;
  private quitting = false;

  private constructor(
    readonly core: Core,
    readonly server: LocalServer,
    readonly log: RagLogger,
    private readonly settings: SettingsStore,
    private readonly paths: AppPaths,
    private readonly opened: { dataDir: string; model: string },
  ) {}

  /** Open the data dir (taking its lock). */
  static async open(settings: SettingsStore, paths: AppPaths): Promise<AppController> {
    const s = settings.get();
    const dataDir = resolveDataDir(s.dataDir || undefined);
    // A `ragdesk mcp` started earlier by an agent hands the data dir over and becomes a bridge to this app.
    const core = await openTakingOver(
      () =>
        Core.open({
          dataDir,
          defaultModel: s.embeddingModel,
          workerPath: paths.embedWorker,
          allowDownload: process.env.RAGDESK_OFFLINE !== '1',
          watchSources: true,
        }),
      dataPaths(dataDir).lock,
    );
    const activity = activityLogFor(dataPaths(dataDir).activity);
    // Internal errors of every door are logged there with their detail; callers get a reference.
    const log = openAppLog(core);
    const server = new LocalServer(core, {
      staticDir: paths.rendererHtml.replace(/[\\/]index\.html$/, ''),
      activity,
      logger: log.logger,
    });
    const controller = new AppController(core, server, log, settings, paths, { dataDir, model: s.embeddingModel });
    // Pause is the core's middleware (every door, and background jobs); the tray only shows it.
    core.ctx.pause.onChange(() => controller.refreshTray());
    return controller;
  }

  async start(options: { hidden: boolean }): Promise<void> {
    const s = this.settings.get();
    await this.server.apply(s.server.enabled, s.server.port);
    this.core.warmUp();
    this.tray = new AppTray(this.paths.resources, (action) => void this.onTray(action));
    this.refreshTray();
    if (!options.hidden) this.showWindow();
  }

  showWindow(): void {
    if (!this.window || this.window.isDestroyed()) {
      this.window = createMainWindow(this.paths, { show: true, icon: path.join(this.paths.resources, 'icon.png') });
      this.window.on('close', (event) => {
        if (!this.quitting && this.settings.get().closeToTray && this.tray) {
          event.preventDefault();
          this.window?.hide();
          this.refreshTray();
        }
      });
      this.window.on('closed', () => {
        this.window = null;
        this.refreshTray();
      });
      this.window.on('show', () => this.refreshTray());
    } else {
      if (this.window.isMinimized()) this.window.restore();
      this.window.show();
      this.window.focus();
    }
    this.refreshTray();
  }

  get hasWindow(): boolean {
    return this.window !== null && !this.window.isDestroyed();
  }

  private trayState(): TrayState {
    return {
      version: RAGDESK_VERSION,
      windowVisible: Boolean(this.window && !this.window.isDestroyed() && this.window.isVisible()),
      server: this.server.status,
      indexingPaused: this.core.ctx.pause.isPaused,
      activeIngests: this.core.ctx.pause.active,
      language: appLanguage(this.settings.get().language),
    };
  }

  refreshTray(): void {
    this.tray?.update(this.trayState());
  }

  /** The stdio command names the data dir unless it is the default one an MCP client's process would find itself. */
  private stdio() {
    const custom = path.resolve(this.opened.dataDir) !== path.resolve(defaultDataDir());
    return stdioCommand({
      execPath: process.execPath,
      mainEntry: this.paths.mainEntry,
      launcher: this.paths.launcher,
      appImage: this.paths.appImage,
      ...(custom ? { dataDir: this.opened.dataDir } : {}),
    });
  }

  private async onTray(action: TrayAction): Promise<void> {
    switch (action) {
      case 'open':
        return this.showWindow();
      case 'copy-url':
        if (this.server.status.url) clipboard.writeText(this.server.status.url);
        return;
      case 'copy-mcp-config':
        clipboard.writeText(claudeDesktopConfig(this.stdio()));
        return;
      case 'toggle-pause':
        await this.core.client.pauseIndexing({ paused: !this.core.ctx.pause.isPaused });
        return;
      case 'quit':
        return void app.quit();
    }
  }

  info(): AppInfo {
    const s = this.settings.get();
    const status = this.server.status;
    const wantedDir = resolveDataDir(s.dataDir || undefined);
    return {
      version: RAGDESK_VERSION,
      platform: process.platform,
      data_dir: this.opened.dataDir,
      server: { running: status.running, url: status.url, error: status.error },
      token: this.core.lock?.info.token ?? null,
      mcp_stdio: this.stdio(),
      indexing_paused: this.core.ctx.pause.isPaused,
      restart_needed: wantedDir !== this.opened.dataDir || s.embeddingModel !== this.opened.model,
      system_languages: systemLanguages(),
    };
  }

  /** The desktop-only IPC operations. */
  handlers(onTheme?: (theme: AppSettings['theme']) => void): DesktopHandlers {
    return {
      appInfo: async () => this.info(),
      getSettings: async () => this.settings.get(),
      updateSettings: async (patch: AppSettingsPatch) => {
        const before = this.settings.get();
        const next = this.settings.update(patch);
        if (next.launchAtLogin !== before.launchAtLogin) this.applyLogin(next.launchAtLogin);
        if (next.server.enabled !== before.server.enabled || next.server.port !== before.server.port) {
          await this.server.apply(next.server.enabled, next.server.port);
        }
        if (next.theme !== before.theme) onTheme?.(next.theme);
        this.refreshTray();
        return next;
      },
      setIndexingPaused: async ({ paused }) => {
        await this.core.client.pauseIndexing({ paused });
        return this.info();
      },
      openDocumentFile: async ({ kb_id, doc_id, page }) => {
        const { path: file } = await this.core.client.documentFile({ kb_id, doc_id });
        // Only a path the core recorded comes back; still, a file the OS would run is shown in its folder, never run.
        const action = openActionFor(file);
        if (action === 'refuse') return { path: file, opened: false };
        if (action === 'reveal') {
          shell.showItemInFolder(file);
          return { path: file, opened: true };
        }
        // PDF viewers (browsers, most desktop readers) honour #page=N on a file URL; other files open as they are.
        if (page && file.toLowerCase().endsWith('.pdf')) {
          await shell.openExternal(`${pathToFileURL(file).href}#page=${page}`);
          return { path: file, opened: true };
        }
        const error = await shell.openPath(file);
        return { path: file, opened: error === '' };
      },
    };
  }

  private applyLogin(enabled: boolean): void {
    try {
      applyLaunchAtLogin(app, enabled, relaunchCommand(this.paths, process.execPath, app.isPackaged));
    } catch (err) {
      void dialog.showMessageBox({
        type: 'warning',
        message: mainText(appLanguage(this.settings.get().language), 'dialogLoginItemFailed'),
        detail: String(err),
      });
    }
  }

  async shutdown(): Promise<void> {
    this.quitting = true;
    this.core.ctx.pause.setPaused(false);
    this.tray?.destroy();
    this.tray = null;
    await this.server.stop().catch(() => undefined);
    await this.core.close().catch(() => undefined);
    await this.log.close().catch(() => undefined);
  }

  markQuitting(): void {
    this.quitting = true;
  }
}
