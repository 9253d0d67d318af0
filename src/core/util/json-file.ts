import fs from 'node:fs';
import path from 'node:path';
import { writeFileSync as atomicWriteFileSync } from 'atomically';

/**
 * `atomically` cleans up its temp files at exit through `when-exit`, which also hooks SIGINT, SIGTERM … and
 * re-raises each signal after its own handler: a second signal a moment after the first, which a server reads as
 * "stop now" (and which kills a process whose own handler was `once`). Its exit-time cleanup stays; its signal
 * hooks are taken off again (its handler is `() => this.exit(signal)` for each signal). Tested in json-file.test.ts.
 */
const HOOKED_SIGNALS = [
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGALRM',
  'SIGABRT',
  'SIGVTALRM',
  'SIGXCPU',
  'SIGXFSZ',
  'SIGUSR2',
  'SIGTRAP',
  'SIGSYS',
  'SIGQUIT',
  'SIGIOT',
  'SIGIO',
  'SIGPOLL',
  'SIGPWR',
  'SIGSTKFLT',
];
const WHEN_EXIT_HANDLER = /^\(\)\s*=>\s*this\.exit\(signal\)$/;

function unhookExitSignals(): void {
  for (const signal of HOOKED_SIGNALS as NodeJS.Signals[]) {
    for (const listener of process.listeners(signal)) {
      if (WHEN_EXIT_HANDLER.test(Function.prototype.toString.call(listener))) process.off(signal, listener);
    }
  }
}
unhookExitSignals();

/**
 * Write a file atomically (a temp file in the same folder, fsync, rename over the target) with `atomically`, the
 * library `conf` writes the app's settings with. Private by default (0600), its folder 0700 when created.
 */
export function writeFileAtomic(file: string, data: string, mode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  atomicWriteFileSync(file, data, { mode, fsync: true });
}

export function readJsonFile<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
}
