import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppSettings, readAppSettings } from '../core/config/app-settings.js';
import { DEFAULT_APP_SETTINGS } from '../shared/desktop.js';
import { SettingsStore } from './settings-store.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-settings-store-'));
// In the app the store is electron-store, a `conf` subclass with the same options; here it is conf itself.
const open = () => new SettingsStore(openAppSettings({ cwd: dir, clearInvalid: true }));

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SettingsStore', () => {
  it('starts from the defaults and writes settings.json in the given folder', () => {
    const store = open();
    expect(store.get()).toEqual(DEFAULT_APP_SETTINGS);
    expect(store.path).toBe(path.join(dir, 'settings.json'));
  });

  it('validates updates with the schema and keeps the rest', () => {
    const store = open();
    const next = store.update({
      theme: 'dark',
      server: { enabled: false, port: 8123 },
      chunking: { strategy: 'sentence', chunk_size: 300, chunk_overlap: 20 },
    });
    expect(next).toMatchObject({ theme: 'dark', server: { enabled: false, port: 8123 }, closeToTray: true });
    expect(() => store.update({ chunking: { strategy: 'sentence', chunk_size: 100, chunk_overlap: 200 } })).toThrow(/chunk_overlap/);
    expect(() => store.update({ theme: 'neon' as never })).toThrow();
    expect(store.get().theme).toBe('dark');
  });

  it('is the same file the CLI reads through conf', () => {
    expect(readAppSettings({ cwd: dir })).toMatchObject({
      theme: 'dark',
      server: { enabled: false, port: 8123 },
      chunking: { strategy: 'sentence', chunk_size: 300, chunk_overlap: 20 },
    });
  });
});
