import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLock } from '../core/config/lock.js';
import { Core } from '../core/core.js';
import { LocalServer } from './server.js';

describe('the app’s local server', () => {
  let dir: string;
  let core: Core;
  let server: LocalServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-main-server-'));
    core = await Core.open({ dataDir: dir, allowDownload: false });
    server = new LocalServer(core, {});
  });
  afterAll(async () => {
    await server.stop();
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts, records its port in the lock, answers /health and /api with the owner token', async () => {
    const status = await server.apply(true, 0);
    expect(status).toMatchObject({ enabled: true, running: true, error: null });
    const port = Number(new URL(status.url!).port);
    expect(readLock(path.join(dir, 'ragdesk.lock'))?.port).toBe(port);
    expect((await fetch(`${status.url}/health`)).status).toBe(200);
    const api = await fetch(`${status.url}/api/listKbs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${core.lock!.info.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await api.json()).toEqual([]);
  });

  it('falls back to a free port when the configured one is taken', async () => {
    await server.stop();
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const status = await server.apply(true, taken);
      expect(status.running).toBe(true);
      expect(Number(new URL(status.url!).port)).not.toBe(taken);
    } finally {
      blocker.close();
    }
  });

  it('turns off, clearing the port from the lock', async () => {
    const status = await server.apply(false, 0);
    expect(status).toEqual({ enabled: false, running: false, url: null, error: null });
    expect(readLock(path.join(dir, 'ragdesk.lock'))?.port).toBeNull();
  });
});
