import { describe, expect, it } from 'vitest';
import { coldStartRows } from './query-cold-rows.js';
import { afterPauses, pipeFloor } from './query-idle.js';
import type { McpFigures, StartRun } from './query-mcp.js';

const start = (first: number, degraded = false): StartRun => ({
  pause_ms: 3000,
  tools_list_ms: 250,
  first_search_ms: first,
  full_hybrid_ms: 900,
  degraded,
});

function figures(paused: StartRun[], warmPaused: number[]): McpFigures {
  return {
    series: {},
    starts: [start(400), start(420), start(410)],
    startsPaused: paused,
    warmPaused,
    pipe: { warm_ms: 0.3, after_pause_ms: [40, 35, 45] },
    responseBytes: {},
    profile: { error: 'not profiled' },
    startProfile: { error: 'not profiled' },
    floors: { 'node -e 0': 40 },
  };
}

const byMeasure = (rows: ReturnType<typeof coldStartRows>, prefix: string) => rows.find((r) => r.measure.startsWith(prefix))!;

describe('coldStartRows', () => {
  it('judges the first search against a warm search after the same pause, and prints the back-to-back ratio too', () => {
    const rows = coldStartRows(figures([start(150), start(140), start(160)], [100, 120, 110]), 15);
    const first = byMeasure(rows, 'first search_kb hybrid 10, 3 s');
    expect(first).toMatchObject({ median_ms: 150, target: '≤ 2× warm after 3 s (220 ms)', ok: 'yes' });
    expect(byMeasure(rows, 'ratio first / warm, both').median_ms).toBe(1.36);
    expect(byMeasure(rows, 'ratio first (after the pause) / warm hybrid p50').median_ms).toBe(10);
    expect(byMeasure(rows, 'floor: the same round trip')).toMatchObject({ median_ms: 40, runs_ms: '40 35 45' });
    expect(byMeasure(rows, 'spawn → tools/list')).toMatchObject({ median_ms: 250, ok: 'yes' });
  });

  it('misses the target when the first search is slower than twice the paused warm one, or answered degraded', () => {
    expect(byMeasure(coldStartRows(figures([start(250)], [100]), 15), 'first search').ok).toBe('NO');
    expect(byMeasure(coldStartRows(figures([start(150, true)], [100]), 15), 'first search').ok).toBe('NO');
  });
});

describe('the idle controls', () => {
  it('afterPauses waits before each call and times the call alone', async () => {
    const calls: number[] = [];
    const t0 = performance.now();
    const out = await afterPauses(
      async () => {
        calls.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      },
      30,
      2,
    );
    expect(out).toHaveLength(2);
    expect(calls[0]).toBeGreaterThanOrEqual(29);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(34);
    for (const ms of out) expect(ms).toBeGreaterThanOrEqual(4);
  });

  it('pipeFloor makes round trips through a real echo process', async () => {
    const floor = await pipeFloor(10, 2);
    expect(floor.after_pause_ms).toHaveLength(2);
    expect(floor.warm_ms).toBeGreaterThan(0);
  });
});
