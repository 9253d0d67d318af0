import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support.js';
import { readLock } from './lock.js';

/**
 * Two processes start together over a stale lock (the desktop app at login and Claude's `ragdesk mcp` after a
 * crash): exactly one may own the data dir, every time. Each child is a real Node process that takes the lock when
 * told, at the same instant as the other (both spin until a shared start time).
 */
const ROUNDS = 50;

interface Child {
  proc: ChildProcessWithoutNullStreams;
  next(): Promise<{ pid: number; won: boolean; code?: string; owner?: number }>;
}

function startChild(): Child {
  const lockModule = pathToFileURL(path.join(import.meta.dirname, 'lock.ts')).href;
  const code = `
    const { acquireLock } = await import(${JSON.stringify(lockModule)});
    const readline = await import('node:readline');
    let held;
    for await (const line of readline.createInterface({ input: process.stdin })) {
      const msg = JSON.parse(line);
      if (msg.release) { held?.release(); held = undefined; process.stdout.write(JSON.stringify({ released: true }) + '\\n'); continue; }
      while (performance.timeOrigin + performance.now() < msg.at) {}
      try {
        held = acquireLock(msg.file);
        process.stdout.write(JSON.stringify({ pid: process.pid, won: true }) + '\\n');
      } catch (err) {
        process.stdout.write(JSON.stringify({ pid: process.pid, won: false, code: err.code, owner: err.details?.pid }) + '\\n');
      }
    }
  `;
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = readline.createInterface({ input: proc.stdout });
  const queue: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  lines.on('line', (line) => {
    const w = waiters.shift();
    if (w) w(line);
    else queue.push(line);
  });
  return {
    proc,
    next: () =>
      new Promise((resolve) => {
        const line = queue.shift();
        if (line !== undefined) resolve(JSON.parse(line));
        else waiters.push((l) => resolve(JSON.parse(l)));
      }),
  };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

let children: Child[] = [];

beforeAll(() => {
  children = Array.from({ length: 4 }, startChild);
});
afterAll(() => {
  for (const c of children) c.proc.kill();
});

/** Run `rounds` start races between `racers`; returns one line per round that did not end with exactly one owner. */
async function race(racers: Child[], rounds: number): Promise<string[]> {
  const dead = await deadPid();
  const dir = tempDir('ragdesk-lock-race-');
  const bad: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const file = path.join(dir, `round-${round}.lock`);
    // Most rounds start over a dead process's lock; some over none, some over an old unreadable one.
    if (round % 5 === 4) {
      fs.writeFileSync(file, '{"pid":');
      fs.utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    } else if (round % 5 !== 3) {
      fs.writeFileSync(file, JSON.stringify({ pid: dead, port: 7411, token: 'old', started_at: '', host: '127.0.0.1' }));
    }
    // Later racers start a little later each round (0 to 200 µs apart), sweeping across the window in which a
    // check-then-remove-then-create lock lets two win.
    const at = Date.now() + 40;
    const lag = (round % 25) * 0.008;
    racers.forEach((c, k) => c.proc.stdin.write(`${JSON.stringify({ file, at: at + k * lag })}\n`));
    const answers = await Promise.all(racers.map((c) => c.next()));
    const winners = answers.filter((a) => a.won);
    if (winners.length !== 1) bad.push(`round ${round}: ${winners.length} owners`);
    else {
      for (const loser of answers.filter((a) => !a.won)) {
        expect(loser.code).toBe('busy');
        expect(loser.owner).toBe(winners[0]!.pid);
      }
      expect(readLock(file)?.pid).toBe(winners[0]!.pid);
    }
    // Owners let go: the lock file is gone.
    await Promise.all(
      racers.map(async (c, k) => {
        if (!answers[k]!.won) return;
        c.proc.stdin.write(`${JSON.stringify({ release: true })}\n`);
        await c.next();
      }),
    );
    expect(fs.existsSync(file)).toBe(false);
  }
  // Nothing else is left behind (temp records, takeover locks, moved stale locks).
  expect(fs.readdirSync(dir)).toEqual([]);
  return bad;
}

describe('processes starting together over one data dir', () => {
  it(`two processes: exactly one owner, ${ROUNDS} times out of ${ROUNDS}`, async () => {
    expect(await race(children.slice(0, 2), ROUNDS)).toEqual([]);
  }, 120_000);

  it(`four processes: exactly one owner, ${ROUNDS} times out of ${ROUNDS}`, async () => {
    expect(await race(children, ROUNDS)).toEqual([]);
  }, 120_000);
});
