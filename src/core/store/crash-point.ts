/**
 * Fault injection for the kill -9 tests (e2e/write-crash.test.ts): with RAGDESK_TEST_CRASH_AT=<stage> or
 * <stage>@<n>, the process kills itself with SIGKILL the n-th time (default: first) it reaches that stage of a
 * write. Without the variable every call is a no-op. Stages are named where they are called: `content-written`
 * (a large text's content files, before any commit), `chunks-written`,
 * `doc-rows-written`, `upkeep` (mid-optimize, see crashDuring), `pack` (adding the packed hit column), `model-swap`,
 * `sync-batch`, and for streamed files
 * `section-embedded`, `section-staged`, `staged-doc-row`.
 */

const spec = process.env.RAGDESK_TEST_CRASH_AT?.trim() ?? '';
const [stage, nth] = spec.split('@');
const target = Math.max(1, Number(nth ?? 1) || 1);
const hits = new Map<string, number>();

function due(name: string): boolean {
  if (!spec || name !== stage) return false;
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  return n === target;
}

function die(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is not deliverable late; keep the type checker honest.
  throw new Error('unreachable');
}

/** Die here if the test asked for this stage. */
export function crashPoint(name: string): void {
  if (due(name)) die();
}

/** Die while `work` (native work on another thread) is under way, if the test asked for this stage. */
export async function crashDuring<T>(name: string, work: Promise<T>, afterMs = 5): Promise<T> {
  if (due(name)) setTimeout(die, afterMs);
  return work;
}
