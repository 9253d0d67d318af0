import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, zombieProcess } from '../test-support.js';
import { acquireExclusive, createExclusive, isPidAlive, readExclusive, removeIfUnchanged } from './exclusive-file.js';

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

const record = (pid: number, tag: string) => JSON.stringify({ pid, tag });
const staleIfDead = (dead: number) => (text: string) => (JSON.parse(text) as { pid: number }).pid === dead;

describe('exclusive lock files', () => {
  it('are created whole, once', () => {
    const file = path.join(tempDir(), 'x.lock');
    expect(createExclusive(file, 'first')).toBe(true);
    expect(createExclusive(file, 'second')).toBe(false);
    expect(readExclusive(file)?.text).toBe('first');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['x.lock']);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('removes a stale record only if it is still the one that was read', () => {
    const file = path.join(tempDir(), 'x.lock');
    fs.writeFileSync(file, 'fresh');
    expect(removeIfUnchanged(file, 'stale')).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('fresh');
    expect(removeIfUnchanged(file, 'fresh')).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    expect(removeIfUnchanged(file, 'fresh')).toBe(false);
    expect(fs.readdirSync(path.dirname(file))).toEqual([]);
  });

  it('does not take over a lock that another process took over first (between reading and removing)', async () => {
    const dead = await deadPid();
    const file = path.join(tempDir(), 'x.lock');
    fs.writeFileSync(file, record(dead, 'old'));
    const theirs = record(process.pid, 'theirs');
    let interleaved = false;
    const outcome = acquireExclusive(file, record(process.pid, 'mine'), {
      isStale: (text, age) => {
        const stale = staleIfDead(dead)(text);
        // Right after we judged the old lock stale, a competitor removes it and creates its own.
        if (stale && !interleaved) {
          interleaved = true;
          fs.rmSync(file);
          expect(createExclusive(file, theirs)).toBe(true);
        }
        return stale && age >= 0;
      },
    });
    expect(interleaved).toBe(true);
    expect(outcome).toEqual({ ok: false, holder: theirs });
    expect(fs.readFileSync(file, 'utf8')).toBe(theirs);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['x.lock']);
  });

  it('takes over a stale lock, and a takeover lock abandoned by a dead process', async () => {
    const dead = await deadPid();
    const file = path.join(tempDir(), 'x.lock');
    fs.writeFileSync(file, record(dead, 'old'));
    fs.writeFileSync(`${file}.takeover`, JSON.stringify({ pid: dead, nonce: 'x' }));
    expect(acquireExclusive(file, record(process.pid, 'mine'), { isStale: staleIfDead(dead) })).toEqual({ ok: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(record(process.pid, 'mine'));
    expect(fs.readdirSync(path.dirname(file))).toEqual(['x.lock']);
  });

  it('gives up at once when asked not to wait and a takeover is under way', async () => {
    const dead = await deadPid();
    const file = path.join(tempDir(), 'x.lock');
    fs.writeFileSync(file, record(dead, 'old'));
    fs.writeFileSync(`${file}.takeover`, JSON.stringify({ pid: process.pid, nonce: 'busy' }));
    const outcome = acquireExclusive(file, record(process.pid, 'mine'), { isStale: staleIfDead(dead), rounds: 1, waitMs: 0 });
    expect(outcome.ok).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(record(dead, 'old'));
  });

  it.runIf(process.platform === 'linux')('counts a zombie as dead: it has exited, only its pid is left', async () => {
    const zombie = await zombieProcess();
    try {
      expect(() => process.kill(zombie.pid, 0)).not.toThrow(); // the signal check alone says it exists
      expect(isPidAlive(zombie.pid)).toBe(false);
      expect(isPidAlive(zombie.parent.pid!)).toBe(true);
      expect(isPidAlive(process.pid)).toBe(true);
    } finally {
      zombie.parent.kill('SIGKILL');
    }
  });
});
