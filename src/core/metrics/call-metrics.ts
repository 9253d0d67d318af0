/** Prometheus text exposition (format 0.0.4), kept small: counters, gauges and one latency histogram family. */

export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function esc(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function labels(pairs: Record<string, string>): string {
  const inner = Object.entries(pairs)
    .map(([k, v]) => `${k}="${esc(v)}"`)
    .join(',');
  return inner ? `{${inner}}` : '';
}

export function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(9).replace(/\.?0+$/, '');
}

interface Series {
  calls: number;
  sum: number;
  buckets: number[];
  errors: Map<string, number>;
}

/** Calls, errors (by code) and a latency histogram per name: MCP tools, or contract methods behind /api. */
export class CallMetrics {
  private readonly series = new Map<string, Series>();

  constructor(
    readonly prefix: string,
    readonly label: string,
    readonly help: string,
  ) {}

  observe(name: string, seconds: number, errorCode?: string | null): void {
    let s = this.series.get(name);
    if (!s) {
      s = { calls: 0, sum: 0, buckets: LATENCY_BUCKETS.map(() => 0), errors: new Map() };
      this.series.set(name, s);
    }
    s.calls++;
    s.sum += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) s.buckets[i]!++;
    if (errorCode) s.errors.set(errorCode, (s.errors.get(errorCode) ?? 0) + 1);
  }

  calls(name: string): number {
    return this.series.get(name)?.calls ?? 0;
  }

  render(): string {
    const p = this.prefix;
    const out: string[] = [];
    const names = [...this.series.keys()].sort();
    out.push(`# HELP ${p}_calls_total ${this.help} calls.`, `# TYPE ${p}_calls_total counter`);
    for (const n of names) out.push(`${p}_calls_total${labels({ [this.label]: n })} ${this.series.get(n)!.calls}`);
    out.push(`# HELP ${p}_errors_total ${this.help} calls that failed, by error code.`, `# TYPE ${p}_errors_total counter`);
    for (const n of names) {
      for (const [code, count] of [...this.series.get(n)!.errors].sort())
        out.push(`${p}_errors_total${labels({ [this.label]: n, code })} ${count}`);
    }
    out.push(`# HELP ${p}_latency_seconds ${this.help} call latency.`, `# TYPE ${p}_latency_seconds histogram`);
    for (const n of names) {
      const s = this.series.get(n)!;
      LATENCY_BUCKETS.forEach((le, i) =>
        out.push(`${p}_latency_seconds_bucket${labels({ [this.label]: n, le: num(le) })} ${s.buckets[i]}`),
      );
      out.push(`${p}_latency_seconds_bucket${labels({ [this.label]: n, le: '+Inf' })} ${s.calls}`);
      out.push(`${p}_latency_seconds_sum${labels({ [this.label]: n })} ${num(s.sum)}`);
      out.push(`${p}_latency_seconds_count${labels({ [this.label]: n })} ${s.calls}`);
    }
    return out.join('\n');
  }
}
