import { describe, expect, it } from 'vitest';
import { parseDesktopArgs } from './argv.js';
import { linuxAutostartEntry } from './autostart.js';
import { claudeDesktopConfig, stdioCommand } from './mcp-config.js';

describe('desktop helpers', () => {
  it('parses --mcp-stdio and --hidden, passing what follows to `ragdesk mcp`', () => {
    expect(parseDesktopArgs(['/app/ragdesk', '--hidden'])).toEqual({ mcpStdio: false, hidden: true, rest: [] });
    expect(parseDesktopArgs(['/usr/bin/electron', '/app/out/main/index.js', '--mcp-stdio', '--data-dir', '/d'])).toEqual({
      mcpStdio: true,
      hidden: false,
      rest: ['--data-dir', '/d'],
    });
  });

  it('starts the stdio server with the app’s own runtime as Node', () => {
    const cmd = stdioCommand({
      execPath: '/Applications/ragdesk.app/Contents/MacOS/ragdesk',
      mainEntry: '/app/out/main/index.js',
      dataDir: '/data',
    });
    expect(cmd).toEqual({
      command: '/Applications/ragdesk.app/Contents/MacOS/ragdesk',
      args: ['/app/out/main/index.js', '--mcp-stdio', '--data-dir', '/data'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    expect(JSON.parse(claudeDesktopConfig(cmd))).toEqual({ mcpServers: { ragdesk: cmd } });
  });

  it('writes an XDG autostart entry with quoted paths', () => {
    const entry = linuxAutostartEntry('/opt/rag desk/ragdesk', ['--hidden']);
    expect(entry).toContain('Exec="/opt/rag desk/ragdesk" --hidden');
    expect(entry.startsWith('[Desktop Entry]\nType=Application\n')).toBe(true);
  });
});
