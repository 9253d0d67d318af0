import { spawn } from 'node:child_process';
import { percentile, round } from './stats.js';

/**
 * What a pause costs the next call on this machine, apart from ragdesk: the control for the first-call figure.
 * On a shared VM a process idle for seconds answers its next message late (its threads and the virtual CPUs they
 * ran on went to sleep): measured here, a pipe round trip to a `node -e` echo took 0.3 ms back to back and 35-45
 * ms 3 s after the last one. A search touches several threads (stdio, the embedding worker, LanceDB's pool), so a
 * warm server's search after the same pause is the fair comparison for a fresh server's first one.
 */

const ECHO = "process.stdin.on('data', (d) => process.stdout.write(d))";

/** `runs` calls of `call`, each `pauseMs` after the one before; the ms each took. */
export async function afterPauses(call: () => Promise<unknown>, pauseMs: number, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    await new Promise((r) => setTimeout(r, pauseMs));
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return out;
}

export interface PipeFloor {
  /** Median of 20 round trips back to back (after 20 more of warm-up). */
  warm_ms: number;
  /** Each round trip made `pauseMs` after the one before. */
  after_pause_ms: number[];
}

/** Round trips of one line through a pipe to a `node -e` echo process: back to back, then after pauses. */
export async function pipeFloor(pauseMs: number, runs: number): Promise<PipeFloor> {
  const child = spawn(process.execPath, ['-e', ECHO], { stdio: ['pipe', 'pipe', 'ignore'] });
  let answered: (() => void) | undefined;
  child.stdout.on('data', () => answered?.());
  const roundTrip = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the echo process did not answer in 10 s')), 10_000);
      answered = () => {
        clearTimeout(timer);
        resolve();
      };
      child.stdin.write('x\n');
    });
  try {
    const warm: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await roundTrip();
      if (i >= 20) warm.push(performance.now() - t);
    }
    return { warm_ms: round(percentile(warm, 50), 2), after_pause_ms: await afterPauses(roundTrip, pauseMs, runs) };
  } finally {
    child.kill();
  }
}
