import path from 'node:path';

/**
 * Extensions an OS runs rather than shows when "opened" (Windows: programs, scripts, shortcuts, installers, registry
 * files; macOS: apps and shell commands; Linux: launchers and scripts). ragdesk indexes source and script files as
 * text, so a document's file may well be one of these: it is shown in its folder, never launched.
 */
const RUNNABLE = new Set([
  // Windows
  'exe',
  'com',
  'bat',
  'cmd',
  'msi',
  'msp',
  'msc',
  'ps1',
  'psm1',
  'vbs',
  'vbe',
  'js',
  'jse',
  'wsf',
  'wsh',
  'scr',
  'pif',
  'lnk',
  'url',
  'hta',
  'cpl',
  'jar',
  'reg',
  'inf',
  'appref-ms',
  'application',
  'gadget',
  'library-ms',
  'settingcontent-ms',
  // macOS
  'app',
  'command',
  'terminal',
  'tool',
  'pkg',
  'mpkg',
  'workflow',
  'scpt',
  'scptd',
  'action',
  // Linux and any Unix
  'desktop',
  'sh',
  'bash',
  'zsh',
  'csh',
  'ksh',
  'fish',
  'run',
  'bin',
  'appimage',
  'py',
  'pl',
  'rb',
]);

export type OpenAction = 'open' | 'reveal' | 'refuse';

/**
 * How the desktop app handles "Open file" for a path the core returned (already a server-recorded, real, regular
 * file): open it with the OS, show it in its folder when the OS would run it, and refuse anything that is not a
 * plain absolute local path (a UNC or device path would make Windows reach out over the network).
 */
export function openActionFor(file: string, platform: NodeJS.Platform = process.platform): OpenAction {
  const p = platform === 'win32' ? path.win32 : path.posix;
  if (!p.isAbsolute(file)) return 'refuse';
  if (platform === 'win32' && (file.startsWith('\\\\') || file.startsWith('//'))) return 'refuse';
  const ext = p.extname(file).slice(1).toLowerCase();
  if (RUNNABLE.has(ext)) return 'reveal';
  if (platform !== 'win32' && !ext) return 'reveal';
  return 'open';
}
