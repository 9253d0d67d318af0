import { describe, expect, it } from 'vitest';
import { buildTrayMenu, trayIcon, trayTooltip, type TrayItem, type TrayState } from './tray-model.js';

const base: TrayState = {
  version: '0.1.0',
  windowVisible: false,
  server: { enabled: true, running: true, url: 'http://127.0.0.1:7300', error: null },
  indexingPaused: false,
};

const action = (items: TrayItem[], id: string) =>
  items.find((i) => i.kind === 'action' && i.id === id) as Extract<TrayItem, { kind: 'action' }> | undefined;
const label = (items: TrayItem[], id: string) =>
  items.find((i) => i.kind === 'label' && i.id === id) as Extract<TrayItem, { kind: 'label' }> | undefined;

describe('tray menu model', () => {
  it('has open, server status with URL, copy MCP config, pause and quit', () => {
    const items = buildTrayMenu(base);
    expect(items.filter((i) => i.kind === 'action').map((i) => (i as { id: string }).id)).toEqual([
      'open',
      'copy-url',
      'copy-mcp-config',
      'toggle-pause',
      'quit',
    ]);
    expect(label(items, 'server-status')?.label).toBe('Server running at http://127.0.0.1:7300');
    expect(action(items, 'copy-url')?.enabled).toBe(true);
    expect(action(items, 'toggle-pause')?.label).toBe('Pause indexing');
    expect(items[items.length - 1]).toMatchObject({ id: 'quit', label: 'Quit ragdesk' });
  });

  it('says "Show" when the window is visible', () => {
    expect(action(buildTrayMenu({ ...base, windowVisible: true }), 'open')?.label).toBe('Show ragdesk');
  });

  it('offers resume while paused, and shows it in the icon and tooltip', () => {
    const paused = { ...base, indexingPaused: true };
    expect(action(buildTrayMenu(paused), 'toggle-pause')).toMatchObject({ label: 'Resume indexing', checked: true });
    expect(trayIcon(paused)).toBe('paused');
    expect(trayTooltip(paused)).toContain('indexing paused');
  });

  it('disables "Copy server URL" when the server is off, and says how to turn it on', () => {
    const off = { ...base, server: { enabled: false, running: false, url: null, error: null } };
    const items = buildTrayMenu(off);
    expect(action(items, 'copy-url')?.enabled).toBe(false);
    expect(label(items, 'server-status')?.label).toMatch(/off/);
    // stdio needs no server: the MCP config can always be copied.
    expect(action(items, 'copy-mcp-config')?.enabled).toBe(true);
  });

  it('shows a server error, shortened, and an error icon', () => {
    const err = {
      ...base,
      server: {
        enabled: true,
        running: false,
        url: null,
        error: `listen EADDRINUSE: address already in use 127.0.0.1:7300 ${'x'.repeat(80)}`,
      },
    };
    const status = label(buildTrayMenu(err), 'server-status')!.label;
    expect(status.startsWith('Server stopped: listen EADDRINUSE')).toBe(true);
    expect(status.length).toBeLessThan(80);
    expect(trayIcon(err)).toBe('error');
  });

  it('shows ongoing ingestion', () => {
    expect(label(buildTrayMenu({ ...base, activeIngests: 3 }), 'ingest-status')?.label).toBe('Indexing 3 documents…');
    expect(label(buildTrayMenu(base), 'ingest-status')).toBeUndefined();
  });

  it('never starts or ends with a separator, nor has two in a row', () => {
    for (const s of [base, { ...base, indexingPaused: true }, { ...base, activeIngests: 1 }]) {
      const items = buildTrayMenu(s);
      expect(items[0]?.kind).not.toBe('separator');
      expect(items[items.length - 1]?.kind).not.toBe('separator');
      items.forEach((it, i) => {
        if (it.kind === 'separator') expect(items[i + 1]?.kind).not.toBe('separator');
      });
    }
  });

  it('speaks the chosen language: Russian with its plural forms, Chinese', () => {
    const ru = { ...base, language: 'ru' as const };
    const items = buildTrayMenu({ ...ru, activeIngests: 1 });
    expect(action(items, 'open')?.label).toBe('Открыть ragdesk');
    expect(label(items, 'server-status')?.label).toBe('Сервер работает: http://127.0.0.1:7300');
    expect(action(items, 'toggle-pause')?.label).toBe('Приостановить индексацию');
    expect(label(items, 'ingest-status')?.label).toBe('Индексируется 1 документ…');
    expect(label(buildTrayMenu({ ...ru, activeIngests: 3 }), 'ingest-status')?.label).toBe('Индексируются 3 документа…');
    expect(label(buildTrayMenu({ ...ru, activeIngests: 25 }), 'ingest-status')?.label).toBe('Индексируются 25 документов…');
    expect(trayTooltip({ ...ru, indexingPaused: true })).toContain('индексация приостановлена');

    const zh = { ...base, language: 'zh-CN' as const, activeIngests: 1200, indexingPaused: false };
    const zhItems = buildTrayMenu(zh);
    expect(action(zhItems, 'quit')?.label).toBe('退出 ragdesk');
    expect(label(zhItems, 'ingest-status')?.label).toBe('正在索引 1,200 个文档…');
    expect(
      label(buildTrayMenu({ ...zh, server: { enabled: false, running: false, url: null, error: null } }), 'server-status')?.label,
    ).toBe('服务器已关闭（可在“设置”中开启）');
  });
});
