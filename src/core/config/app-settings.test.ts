import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS } from '../../shared/desktop.js';
import { tempDirsPerTest } from '../test-support.js';
import { appSettingsJsonSchema, openAppSettings, readAppSettings } from './app-settings.js';

const tmp = tempDirsPerTest('ragdesk-settings-');

describe('app settings file (conf)', () => {
  it('gives the defaults when there is no file', () => {
    expect(readAppSettings({ cwd: tmp() })).toEqual(DEFAULT_APP_SETTINGS);
  });

  it('reads what the desktop app wrote to settings.json', () => {
    const cwd = tmp();
    fs.writeFileSync(
      path.join(cwd, 'settings.json'),
      JSON.stringify({ ...DEFAULT_APP_SETTINGS, server: { enabled: false, port: 9000 }, theme: 'dark' }),
    );
    const s = readAppSettings({ cwd });
    expect(s.server).toEqual({ enabled: false, port: 9000 });
    expect(s.theme).toBe('dark');
    expect(s.chunking).toEqual(DEFAULT_APP_SETTINGS.chunking);
  });

  it('rejects a write that breaks the schema', () => {
    const conf = openAppSettings({ cwd: tmp() });
    expect(() => conf.set('theme', 'purple' as never)).toThrow(/theme/);
    expect(() => conf.set('server', { enabled: true, port: 70000 } as never)).toThrow();
    conf.set('closeToTray', false);
    expect(conf.get('closeToTray')).toBe(false);
  });

  it('falls back to defaults for a corrupt file', () => {
    const cwd = tmp();
    fs.writeFileSync(path.join(cwd, 'settings.json'), '{not json');
    expect(readAppSettings({ cwd })).toEqual(DEFAULT_APP_SETTINGS);
    // The CLI only reads: it never rewrites a file it does not understand.
    expect(fs.readFileSync(path.join(cwd, 'settings.json'), 'utf8')).toBe('{not json');
  });

  it('has one JSON schema per setting', () => {
    expect(Object.keys(appSettingsJsonSchema()).sort()).toEqual(Object.keys(DEFAULT_APP_SETTINGS).sort());
  });
});

describe('readSettingsFile (the CLI reads without conf)', () => {
  it('reads what conf wrote, says undefined when there is no file, and defaults only the broken keys', async () => {
    const { readSettingsFile } = await import('./settings-file.js');
    const cwd = tmp();
    expect(readSettingsFile(cwd)).toBeUndefined();
    const conf = openAppSettings({ cwd });
    conf.set('embeddingModel', 'english');
    expect(readSettingsFile(cwd)).toMatchObject({ embeddingModel: 'english' });
    fs.writeFileSync(path.join(cwd, 'settings.json'), JSON.stringify({ embeddingModel: 'english', theme: 'purple' }));
    expect(readSettingsFile(cwd)).toMatchObject({ embeddingModel: 'english', theme: 'system' });
  });
});
