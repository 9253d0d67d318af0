import { printLine, printTable } from '../output.js';
import type { ProfileRow, ProfileSummary } from './cpu-profile.js';
import type { QueryReport } from './query-bench.js';

/** The `query` bench's report as text: the latency table, cold start, and the three CPU profiles. */

const table = (rows: ProfileRow[]) => printTable(rows as unknown as Array<Record<string, unknown>>, ['name', 'self_ms', 'pct_busy']);

function profile(title: string, p: ProfileSummary | { error: string }, show: Array<'by_package' | 'by_function'>): void {
  if ('error' in p) return printLine(`${title}: ${p.error}`);
  printLine(`${title}: busy ${p.busy_ms} ms, idle ${p.idle_ms} ms${p.windowed ? '' : ' (whole profile)'}`);
  for (const k of show) table(p[k]);
}

export function printQueryReport(q: QueryReport): void {
  printLine(`Query path (${q.corpus}, ${q.documents} documents, ${q.model}; raw = the LanceDB call alone, same table, same run)`);
  printTable(q.rows as unknown as Array<Record<string, unknown>>, [
    'path',
    'top_k',
    'p50_ms',
    'p99_ms',
    'raw_p50_ms',
    'ratio_p50',
    'target',
    'ok',
  ]);
  printLine('Cold start (node bin/ragdesk.js --data-dir D mcp, the SDK client over stdio)');
  printTable(q.cold_start, ['measure', 'median_ms', 'runs_ms', 'target', 'ok']);
  const { mcp_fts: mcp, core_fts_in_process: core, mcp_start: start } = q.profiles;
  const perCall = 'error' in mcp ? '' : ` over ${mcp.fts_calls} fts calls (top_k 10 and 50), ${mcp.busy_ms_per_call} ms busy per call`;
  profile(
    `CPU profile, MCP stdio server (node --cpu-prof), main thread${perCall}; idle = waiting on the client, the pipe or LanceDB's threads`,
    mcp,
    ['by_package', 'by_function'],
  );
  profile(
    `CPU profile, core search fts in process (${core.calls} calls, ${Math.round((core.busy_ms / core.calls) * 1000) / 1000} ms busy per call)`,
    core,
    ['by_function'],
  );
  profile('CPU profile, MCP server start (spawn → tools/list answered)', start, ['by_package', 'by_function']);
  for (const [k, v] of Object.entries({ kb: q.kb, build_s: q.build_s, queries: q.queries, mcp_response_bytes: q.mcp_response_bytes }))
    printLine(`  ${k.padEnd(20)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  for (const n of q.notes) printLine(`  ${n}`);
  printLine();
}
