import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { benchAnnRecall } from '../bench/ann-bench.js';
import type { EmbedReport } from '../bench/embed-bench.js';
import { benchIngest } from '../bench/ingest-bench.js';
import type { QueryReport } from '../bench/query-bench.js';
import { printQueryReport } from '../bench/query-print.js';
import { benchSearch } from '../bench/search-bench.js';
import { benchSources } from '../bench/sources-bench.js';
import { overRssCap, type PeakRss } from '../bench/rss-cap.js';
import { printJson, printLine, printTable } from '../output.js';
import { globals } from './common.js';

const PARTS = ['ingest', 'search', 'ann', 'sources', 'writes', 'mcp', 'ui', 'hostile', 'ocr', 'memory', 'scale', 'query', 'embed'] as const;
/** Parts that run only when named with --only (minutes to hours, or large inputs). */
const ON_REQUEST: readonly Part[] = ['memory', 'scale'];
type Part = (typeof PARTS)[number];

/** Project root: the folder holding package.json above this module (src/cli/commands or out/main/chunks). */
function projectRoot(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

interface BenchFlags {
  only?: string;
  sizes: string;
  memoryScale: string;
  scale: string;
  agentSeconds: string;
  maxRssMb?: string;
}

export function registerBench(program: Command): void {
  program
    .command('bench')
    .description('measure ingest throughput, search latency and ANN recall (npm run bench); not a test')
    .option('--only <parts>', `comma-separated: ${PARTS.join(',')}`)
    .option('--sizes <list>', 'chunk counts for the latency part', '10000,100000')
    .option('--memory-scale <x>', 'memory part: input sizes × x (1 = 200 MB Markdown, 500-page PDF, 50,000 files)', '1')
    .option('--scale <chunks>', 'scale part: chunks in the KB (1000000 for the documented figures)', '100000')
    .option('--agent-seconds <n>', 'scale part: then an agent writes a document every 30 s for n seconds while searches go on', '0')
    .option('--max-rss-mb <n>', 'memory and scale parts: exit non-zero when a peak RSS is above n MB (a CI regression cap)')
    .action(async (o: BenchFlags, cmd: Command) => {
      const g = globals(cmd);
      if (process.env.RAGDESK_SCALE_QUERY_PHASE) {
        // A phase of the scale part (queries, an agent's writes): this command, spawned in a fresh process by benchScale.
        const { benchScale } = await import('../bench/scale-bench.js');
        await benchScale(projectRoot(), os.tmpdir(), { chunks: 0, log: () => {} });
        return;
      }
      const parts = (o.only ? o.only.split(',') : PARTS.filter((p) => !ON_REQUEST.includes(p))) as Part[];
      const unknown = parts.filter((p) => !PARTS.includes(p));
      if (unknown.length) throw new Error(`unknown bench part(s) ${unknown.join(', ')}; parts: ${PARTS.join(', ')}`);
      const cap = o.maxRssMb === undefined ? undefined : Number(o.maxRssMb);
      const peaks: PeakRss[] = [];
      const root = projectRoot();
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ragdesk-bench-'));
      const report: Record<string, unknown> = {
        machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.versions.node, date: new Date().toISOString() },
      };
      const log = (s: string) => !g.json && process.stderr.write(`${s}\n`);
      try {
        if (parts.includes('ingest')) {
          log('ingest throughput (excluding embedding)…');
          report.ingest = await benchIngest(root, work);
        }
        if (parts.includes('search')) {
          log('search latency on synthetic 384-d vectors…');
          report.search = await benchSearch(root, work, o.sizes.split(',').map(Number));
        }
        if (parts.includes('ann')) {
          log('ANN recall on real embeddings…');
          report.ann = await benchAnnRecall(root, work);
        }
        if (parts.includes('sources')) {
          log('folder sources: no-op sync, one changed file…');
          report.sources = await benchSources(work);
        }
        if (parts.includes('writes')) {
          log('writes on SciFact: one add_document per document vs bulk, per-write cost, split over two KBs…');
          const { benchWrites } = await import('../bench/writes-bench.js');
          report.writes = await benchWrites(root, work, log);
        }
        if (parts.includes('embed')) {
          log('ingest with embedding: ragdesk add of ~20 MB of Markdown with the model and without, ragdesk embedder vs bare onnxruntime…');
          const { benchEmbed } = await import('../bench/embed-bench.js');
          report.embed = await benchEmbed(root, work, log);
        }
        if (parts.includes('mcp')) {
          log('MCP: stdio start, per-call overhead, HTTP throughput…');
          const { benchMcp } = await import('../bench/mcp-bench.js');
          report.mcp = await benchMcp();
        }
        if (parts.includes('hostile')) {
          log('ragdesk add of a folder of hostile files: outcomes and peak RSS…');
          const { benchHostile } = await import('../bench/hostile-bench.js');
          report.hostile = await benchHostile(root, work);
        }
        if (parts.includes('ocr')) {
          log('OCR: scanned pages in English, Russian and Chinese through ragdesk add (CER, phrase hits, s/page, peak RSS)…');
          const { benchOcr } = await import('../bench/ocr-bench.js');
          report.ocr = await benchOcr(root, work, log);
        }
        if (parts.includes('memory')) {
          log('flat memory: ragdesk add of a big Markdown file, a long PDF and a folder of small files (peak RSS)…');
          const { benchMemory } = await import('../bench/memory-bench.js');
          const memory = await benchMemory(root, work, { scale: Number(o.memoryScale), log });
          report.memory = memory;
          for (const r of memory.rows)
            peaks.push({ label: `memory ${r.model} ${r.input}`, peak_rss_mb: r.exit_code === 0 ? r.peak_rss_mb : undefined });
        }
        if (parts.includes('query')) {
          log('query path (SciFact, else rag_data/): raw LanceDB vs core search vs search_kb over MCP stdio, cold start, CPU profiles…');
          const { benchQuery } = await import('../bench/query-bench.js');
          report.query = await benchQuery(root, work, log);
        }
        if (parts.includes('scale')) {
          log(`scale: a ${o.scale}-chunk KB of realistic text, indexes, FTS/vector/hybrid latency, ANN recall, peak RSS…`);
          const { benchScale } = await import('../bench/scale-bench.js');
          const scale = await benchScale(root, work, { chunks: Number(o.scale), log, agentSeconds: Number(o.agentSeconds) });
          if (!scale) throw new Error('scale bench: no report');
          report.scale = scale;
          peaks.push({ label: `scale ingest ${scale.chunks} chunks`, peak_rss_mb: scale.peak_rss.ingest_mb });
          peaks.push({ label: `scale queries ${scale.chunks} chunks`, peak_rss_mb: scale.peak_rss.queries_mb });
          if (scale.agent) peaks.push({ label: `scale agent writes ${scale.chunks} chunks`, peak_rss_mb: scale.agent.peak_rss_mb });
        }
        if (parts.includes('ui')) {
          log('web console: first load, drop to searchable…');
          // Loaded only here: it drives Chromium through playwright-core, a development dependency.
          const { benchUi } = await import('../bench/ui-bench.js');
          report.ui = await benchUi();
        }
      } finally {
        fs.rmSync(work, { recursive: true, force: true });
      }
      const over = overRssCap(peaks, cap);
      if (over.length) {
        process.exitCode = 1;
        for (const line of over) process.stderr.write(`bench: ${line}\n`);
      }
      if (g.json) return printJson(report);
      const ingest = report.ingest as { formats: Array<Record<string, unknown>> } | undefined;
      if (ingest) {
        printLine('Ingest (parse + chunk + index, no embedding)');
        printTable(ingest.formats, ['format', 'files', 'mb', 'chunks', 'seconds', 'mb_per_s', 'chunks_per_s']);
        printLine();
      }
      if (report.embed) (await import('../bench/embed-bench.js')).printEmbedReport(report.embed as EmbedReport);
      const search = report.search as { latency: Array<Record<string, unknown>> } | undefined;
      if (search) {
        printLine('Search latency (excluding query embedding)');
        printTable(search.latency, ['chunks', 'vector_index', 'mode', 'p50_ms', 'p95_ms']);
        printLine();
      }
      const memory = report.memory as { rows: Array<Record<string, unknown>>; notes: string[]; scale: number } | undefined;
      if (memory) {
        printLine(`Flat memory (ragdesk add, peak RSS of the process tree; scale ${memory.scale})`);
        printTable(memory.rows, ['model', 'input', 'input_mb', 'chunks', 'seconds', 'cpu_s', 'mb_per_s', 'peak_rss_mb', 'target_mb', 'ok']);
        for (const n of memory.notes) printLine(`  ${n}`);
        for (const r of memory.rows) if (r.note) printLine(`  ${String(r.input)}: ${String(r.note)}`);
        printLine();
      }
      const scale = report.scale as { rows: Array<Record<string, unknown>> } | undefined;
      if (scale) {
        const { rows, ...rest } = scale;
        printLine('Scale (core search in a fresh process, top_k 10; raw = the LanceDB call alone on the same table)');
        printTable(rows, ['mode', 'p50_ms', 'p99_ms', 'cpu_ms_per_query', 'raw_p50_ms', 'ratio_p50', 'target']);
        for (const [k, v] of Object.entries(rest)) printLine(`  ${k.padEnd(28)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        printLine();
      }
      const query = report.query as QueryReport | undefined;
      if (query) printQueryReport(query);
      const ocr = report.ocr as { rows: Array<Record<string, unknown>> } | undefined;
      if (ocr) {
        const { rows, ...rest } = ocr;
        printLine('OCR (ragdesk add of image-only PDFs and images; languages detected per page)');
        printTable(rows, [
          'variant',
          'lang',
          'pages',
          'cer_pct',
          'target_pct',
          'phrase_hit_rate',
          's_per_page',
          'cpu_s_per_page',
          'peak_rss_mb',
        ]);
        for (const [k, v] of Object.entries(rest)) printLine(`  ${k.padEnd(28)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        printLine();
      }
      for (const [part, title] of [
        ['ann', 'ANN vs exact on real embeddings'],
        ['sources', 'Folder sources'],
        ['writes', 'Writes (read-your-writes, per-write cost, split KBs)'],
        ['mcp', 'MCP'],
        ['ui', 'Web console'],
        ['hostile', 'Hostile files (ragdesk add)'],
      ] as const) {
        if (!report[part]) continue;
        printLine(title);
        for (const [k, v] of Object.entries(report[part] as Record<string, unknown>))
          printLine(`  ${k.padEnd(28)} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
        printLine();
      }
    });
}
