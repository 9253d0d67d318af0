import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import path from 'node:path';
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
    const load = (name: string) => {
      const img = nativeImage.createFromPath(path.join(resources, 'tray', `${name}.png`));
      if (process.platform === 'darwin' && name === 'trayTemplate') img.setTemplateImage(true);
      return img;
    };
    this.icons =
      process.platform === 'darwin'
        ? { normal: load('trayTemplate'), paused: load('tray-paused'), error: load('tray-error') }
        : { normal: load('tray'), paused: load('tray-paused'), error: load('tray-error') };
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
