import { CallMetrics, labels, num } from './call-metrics.js';

export { CallMetrics } from './call-metrics.js';

/** Everything one ragdesk server exposes at /metrics. */
export class Metrics {
  readonly tools = new CallMetrics('ragdesk_tool', 'tool', 'MCP tool');
  private readonly http = new Map<string, number>();
  private readonly gauges = new Map<string, { help: string; read: () => number }>();
  readonly started = Date.now();

  /** `api`: the contract operations, counted by the core's dispatcher for every door (give the core's own). */
  constructor(readonly api: CallMetrics = new CallMetrics('ragdesk_api', 'method', 'Contract operation')) {}

  countHttp(route: string, status: number): void {
    const key = `${route}\u0000${status}`;
    this.http.set(key, (this.http.get(key) ?? 0) + 1);
  }

  gauge(name: string, help: string, read: () => number): void {
    this.gauges.set(name, { help, read });
  }

  render(): string {
    const out = [this.tools.render(), this.api.render()];
    out.push('# HELP ragdesk_http_requests_total HTTP requests by route and status.', '# TYPE ragdesk_http_requests_total counter');
    for (const [key, count] of [...this.http].sort()) {
      const [route, status] = key.split('\u0000');
      out.push(`ragdesk_http_requests_total${labels({ route: route!, status: status! })} ${count}`);
    }
    for (const [name, g] of [...this.gauges].sort())
      out.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`, `${name} ${num(g.read())}`);
    out.push('# HELP ragdesk_uptime_seconds Seconds since the server started.', '# TYPE ragdesk_uptime_seconds gauge');
    out.push(`ragdesk_uptime_seconds ${num((Date.now() - this.started) / 1000)}`);
    return `${out.join('\n')}\n`;
  }
}
