import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import path from 'node:path';
import { RESOURCE_FILES } from './app-paths.js';
import { buildTrayMenu, trayIcon, trayTooltip, type TrayAction, type TrayIcon, type TrayItem, type TrayState } from './tray-model.js';

function menuTemplate(items: TrayItem[], run: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.kind === 'separator') return { type: 'separator' };
    if (item.kind === 'label') return { id: item.id, label: item.label, enabled: false };
    return {
      id: item.id,
      label: item.label,
      enabled: item.enabled,
      ...(item.checked !== undefined ? { type: 'checkbox' as const, checked: item.checked } : {}),
      click: () => run(item.id),
    };
  });
}

/** The tray icon and its menu, rebuilt from the pure model whenever the state changes. */
export class AppTray {
  private readonly tray: Tray;
  private readonly icons: Record<TrayIcon, NativeImage>;

  constructor(
    resources: string,
    private readonly run: (action: TrayAction) => void,
  ) {
    const files = RESOURCE_FILES.tray;
    const load = (file: string) => {
      const img = nativeImage.createFromPath(path.join(resources, file));
      if (file === files.macNormal) img.setTemplateImage(true);
      return img;
    };
    const normal = process.platform === 'darwin' ? files.macNormal : files.normal;
    this.icons = { normal: load(normal), paused: load(files.paused), error: load(files.error) };
    this.tray = new Tray(this.icons.normal);
    // Windows/Linux: a click opens the window; the menu is on right-click (and on click where that is the norm).
    this.tray.on('click', () => this.run('open'));
  }

  update(state: TrayState): void {
    this.tray.setImage(this.icons[trayIcon(state)]);
    this.tray.setToolTip(trayTooltip(state));
    this.tray.setContextMenu(Menu.buildFromTemplate(menuTemplate(buildTrayMenu(state), this.run)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
