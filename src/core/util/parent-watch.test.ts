import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { zombieProcess } from '../test-support.js';
import { watchParent } from './parent-watch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchParent', () => {
  it('calls back once when the parent pid changes (re-parented after the parent was killed)', async () => {
    let ppid = 4242;
    let gone = 0;
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: '4242' }, ppid: () => ppid, intervalMs: 10 });
    await sleep(40);
    expect(gone).toBe(0);
    ppid = 1;
    await sleep(40);
    expect(gone).toBe(1);
    ppid = 7;
    await sleep(40);
    expect(gone).toBe(1);
  });

  it('watches nothing without the variable or when it names another live process than the parent', async () => {
    let ppid = 10;
    let gone = 0;
    watchParent(() => gone++, { env: {}, ppid: () => ppid, intervalMs: 10 });
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: '11' }, ppid: () => ppid, alive: () => true, intervalMs: 10 });
    ppid = 1;
    await sleep(40);
    expect(gone).toBe(0);
  });

  it('calls back once when the named parent is gone before the watch starts (re-parented already)', async () => {
    let gone = 0;
    const asked: number[] = [];
    const alive = (pid: number) => (asked.push(pid), false);
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: '4242' }, ppid: () => 1, alive, intervalMs: 10 });
    await sleep(40);
    expect([gone, asked]).toEqual([1, [4242]]);
    // stop() before it fires: nothing
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: '4242' }, ppid: () => 1, alive }).stop();
    await sleep(20);
    expect(gone).toBe(1);
  });

  it('tells a live process from a gone one by the real pid', async () => {
    let gone = 0;
    // This process is alive and is not its own parent: an inherited variable, nothing watched.
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: String(process.pid) }, intervalMs: 10 });
    // A child that has exited (and been reaped) is gone.
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((r) => child.on('exit', r));
    await sleep(50);
    watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: String(pid) }, intervalMs: 10 });
    await sleep(40);
    expect(gone).toBe(1);
  });

  it.runIf(process.platform === 'linux')('counts a named parent that is a zombie (killed, not yet reaped) as gone', async () => {
    const zombie = await zombieProcess();
    try {
      expect(fs.readFileSync(`/proc/${zombie.pid}/stat`, 'utf8')).toMatch(/\) Z /);
      let gone = 0;
      watchParent(() => gone++, { env: { RAGDESK_PARENT_PID: String(zombie.pid) }, intervalMs: 10 });
      await sleep(40);
      expect(gone).toBe(1);
    } finally {
      zombie.parent.kill('SIGKILL');
    }
  });

  it('a real child stops when its parent is killed with SIGKILL', async () => {
    // parent (a shell-less node) spawns a child that watches it and prints "gone" to a pipe we hold.
    const childCode = `
      const { watchParent } = await import(${JSON.stringify(new URL('./parent-watch.ts', import.meta.url).href)});
      watchParent(() => { process.stdout.write('gone\\n'); process.exit(0); }, { intervalMs: 50 });
      process.stdout.write('watching\\n');
      setInterval(() => {}, 1000);`;
    const parentCode = `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(childCode)}],
        { env: { ...process.env, RAGDESK_PARENT_PID: String(process.pid) }, stdio: ['ignore', 'inherit', 'inherit'] });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', parentCode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const until = async (re: RegExp) => {
      for (let i = 0; i < 600 && !re.test(out); i++) await sleep(50);
      return re.test(out);
    };
    expect(await until(/watching/)).toBe(true);
    parent.kill('SIGKILL');
    expect(await until(/gone/)).toBe(true);
  }, 60_000);
});
