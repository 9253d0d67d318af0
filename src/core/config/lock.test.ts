import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RagError } from '../../shared/errors.js';
import { tempDir, zombieProcess } from '../test-support.js';
import { acquireLock, liveLockOwner, readLock } from './lock.js';

describe('data dir lock', () => {
  it('records pid, port and token, and releases', () => {
    const file = path.join(tempDir(), 'ragdesk.lock');
    const lock = acquireLock(file);
    expect(readLock(file)).toMatchObject({ pid: process.pid, port: null });
    expect(lock.info.token.length).toBeGreaterThan(20);
    lock.setPort(7411);
    expect(readLock(file)?.port).toBe(7411);
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('takes over a stale lock left by a dead process', async () => {
    const file = path.join(tempDir(), 'ragdesk.lock');
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid!;
    await new Promise((r) => child.on('exit', r));
    fs.writeFileSync(file, JSON.stringify({ pid: deadPid, port: 1, token: 'old', started_at: '', host: '127.0.0.1' }));
    const lock = acquireLock(file);
    expect(readLock(file)?.pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose process has exited but was never reaped (a zombie)', async () => {
    const file = path.join(tempDir(), 'ragdesk.lock');
    const zombie = await zombieProcess();
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: zombie.pid, port: 1, token: 'old', started_at: '', host: '127.0.0.1' }));
      expect(liveLockOwner(file)).toBeUndefined();
      const lock = acquireLock(file);
      expect(readLock(file)?.pid).toBe(process.pid);
      lock.release();
    } finally {
      zombie.parent.kill('SIGKILL');
    }
  });

  it('refuses a live owner with a clear busy error', async () => {
    const file = path.join(tempDir(), 'ragdesk.lock');
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: child.pid, port: 7411, token: 't', started_at: '', host: '127.0.0.1' }));
      expect(liveLockOwner(file)?.pid).toBe(child.pid);
      let err: unknown;
      try {
        acquireLock(file);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RagError);
      expect((err as RagError).code).toBe('busy');
      expect((err as RagError).message).toMatch(String(child.pid));
    } finally {
      child.kill();
    }
  });
});
