import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Core } from '../../core/core.js';
import { editDistance, normalizeForCer } from '../../core/ocr/cer.js';
import { renderPage, toImagePdf, toJpeg, toPng, type PageVariant, type RenderedPage } from '../../core/ocr/fixture-pages.js';
import { fixturePages, type FixturePageText } from '../../core/ocr/fixture-texts.js';
import { OcrLanguageStore } from '../../core/ocr/lang-store.js';
import { round } from './stats.js';
import { dataPaths } from '../../core/config/data-dir.js';

/**
 * OCR quality and cost, measured through real ingestion. Pages of known English, Russian and Chinese text are drawn
 * here (fixture-pages.ts, system fonts), at 300 and 150 dpi, clean, turned 1.5° and soiled, as image-only PDFs,
 * PNGs and JPEGs; each language's files are added with `ragdesk add` in a child process (the built CLI: parse pool,
 * Tesseract workers; languages detected per page, none set on the KB) whose peak RSS, workers included, is sampled
 * from /proc. Then each document's text is compared with the known text of its pages (character error rate), and a
 * phrase of each page is searched (full text) in its KB: a hit is that document first, cited at that page. Language
 * data: English ships with ragdesk; Russian and Chinese are imported from Debian's tessdata (or
 * RAGDESK_BENCH_TESSDATA); a language whose data is missing is left out, never downloaded.
 */
const TESSDATA = process.env.RAGDESK_BENCH_TESSDATA ?? '/usr/share/tesseract-ocr/5/tessdata';
const LANGS: FixturePageText['lang'][] = ['eng', 'rus', 'chi_sim'];
const TARGET: Record<string, number> = { eng: 0.03, rus: 0.05, chi_sim: 0.08 };

interface Variant {
  name: string;
  dpi: number;
  variant: PageVariant;
  /** Page indexes (of the three per language) in this variant. */
  pages: number[];
  format: 'pdf' | 'png' | 'jpeg';
}

const VARIANTS: Variant[] = [
  { name: 'clean 300 dpi (PDF)', dpi: 300, variant: 'clean', pages: [0, 1, 2], format: 'pdf' },
  { name: 'clean 150 dpi (PDF)', dpi: 150, variant: 'clean', pages: [2], format: 'pdf' },
  { name: 'turned 1.5° 300 dpi (PNG)', dpi: 300, variant: 'rotated', pages: [0], format: 'png' },
  { name: 'soiled photo 300 dpi (JPEG)', dpi: 300, variant: 'photo', pages: [1], format: 'jpeg' },
];

/** CPU seconds a process has used so far, all its threads (Tesseract's and the parse pool's included), from /proc. */
function cpuOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return Math.max(kb('VmRSS'), kb('VmHWM')) / 1024;
  } catch {
    return 0;
  }
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
  /** CPU seconds (last sample before it ended, every 50 ms). */
  cpu: number;
  peakMb: number;
}

function run(root: string, args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'ragdesk.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    let cpu = 0;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const poll = setInterval(() => {
      if (!child.pid) return;
      peak = Math.max(peak, rssOf(child.pid));
      cpu = Math.max(cpu, cpuOf(child.pid));
    }, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, stdout, stderr, seconds: (performance.now() - start) / 1000, cpu, peakMb: round(peak, 0) });
    });
  });
}

function write(file: string, v: Variant, pages: RenderedPage[]): void {
  const data = v.format === 'pdf' ? toImagePdf(pages) : v.format === 'png' ? toPng(pages[0]!) : toJpeg(pages[0]!, 80);
  fs.writeFileSync(file, data);
}

export async function benchOcr(
  root: string,
  work: string,
  log: (line: string) => void = () => undefined,
): Promise<Record<string, unknown>> {
  const dataDir = path.join(work, 'ocr-data');
  const store = new OcrLanguageStore({ modelsDir: dataPaths(dataDir).models, allowDownload: false });
  const imported = fs.existsSync(TESSDATA) ? store.importFrom(TESSDATA, ['rus', 'chi_sim']).imported.map((i) => i.code) : [];
  const langs = LANGS.filter((l) => l === 'eng' || imported.includes(l));
  const base = ['--data-dir', dataDir, '--no-download'];
  // A baseline: what `ragdesk add` costs before any OCR (start, pool, store), taken off the per-page time.
  const emptyDir = path.join(work, 'ocr-empty');
  fs.mkdirSync(emptyDir, { recursive: true });
  fs.writeFileSync(path.join(emptyDir, 'note.txt'), 'A note of one line, so that the job has a file.');
  await run(root, [...base, 'kb', 'create', 'ocr-baseline']);
  const baseline = await run(root, [...base, 'add', emptyDir, '--kb', 'ocr-baseline']);

  const rows: Array<Record<string, unknown>> = [];
  const kbOf = (i: number) => `ocr-v${i}`;
  const files: Array<{ v: number; lang: string; doc: string; pages: Array<{ page: number; text: FixturePageText; truth: string }> }> = [];
  for (const [vi, v] of VARIANTS.entries()) {
    // Small chunks: a page's phrase is cited by its own page.
    await run(root, [...base, 'kb', 'create', kbOf(vi), '--strategy', 'sentence', '--chunk-size', '64', '--chunk-overlap', '0']);
    for (const lang of langs) {
      const texts = fixturePages(lang);
      const rendered = v.pages.map((p, k) => renderPage(texts[p]!, { dpi: v.dpi, variant: v.variant, seed: 11 + k }));
      const folder = path.join(work, `ocr-${vi}-${lang}`);
      fs.mkdirSync(folder, { recursive: true });
      const doc = `${lang}.${v.format === 'jpeg' ? 'jpg' : v.format}`;
      write(path.join(folder, doc), v, rendered);
      const add = await run(root, [...base, '--json', 'add', folder, '--kb', kbOf(vi)]);
      if (add.code !== 0) throw new Error(`ragdesk add failed (${add.code}): ${add.stdout.slice(0, 400)} ${add.stderr.slice(-400)}`);
      const pages = v.pages.map((p, k) => ({ page: k + 1, text: texts[p]!, truth: rendered[k]!.truth }));
      files.push({ v: vi, lang, doc, pages });
      const ocrSeconds = Math.max(0, add.seconds - baseline.seconds);
      const cpuSeconds = Math.max(0, add.cpu - baseline.cpu);
      log(
        `  ${v.name}, ${lang}: ${pages.length} page(s) in ${add.seconds.toFixed(1)} s (${add.cpu.toFixed(1)} CPU s), peak RSS ${add.peakMb} MB`,
      );
      rows.push({
        variant: v.name,
        lang,
        pages: pages.length,
        s_per_page: round(ocrSeconds / pages.length, 1),
        cpu_s_per_page: round(cpuSeconds / pages.length, 1),
        add_seconds: round(add.seconds, 1),
        peak_rss_mb: add.peakMb,
      });
    }
  }

  // Quality and findability, read back from the store (no owner is running: open it here).
  const core = await Core.open({ dataDir, allowDownload: false });
  try {
    for (const f of files) {
      const row = rows.find((r) => r.variant === VARIANTS[f.v]!.name && r.lang === f.lang)!;
      // The document's text (every page, in order) against the known text of its pages.
      const doc = await core.client.getDocument({ kb_id: kbOf(f.v), doc_id: f.doc });
      const truth = normalizeForCer(f.pages.map((p) => p.truth).join('\n'));
      const edits = editDistance(normalizeForCer(doc.content), truth);
      const chars = [...truth].length;
      let hits = 0;
      for (const p of f.pages) {
        const res = await core.client.search({ kb_ids: [kbOf(f.v)], query: p.text.phrase, mode: 'fts', top_k: 5 });
        const loc = res.hits[0]?.location;
        if (res.hits[0]?.doc_id === f.doc && loc?.page !== undefined && loc.page <= p.page && p.page <= (loc.page_end ?? loc.page)) hits++;
      }
      Object.assign(row, {
        cer_pct: round((edits / Math.max(1, chars)) * 100, 2),
        target_pct: f.v === 0 ? TARGET[f.lang]! * 100 : '',
        phrase_hit_rate: `${hits}/${f.pages.length}`,
      });
    }
  } finally {
    await core.close();
  }
  const clean = rows.filter((r) => r.variant === VARIANTS[0]!.name);
  return {
    languages: langs,
    left_out: LANGS.filter((l) => !langs.includes(l)),
    baseline_add_seconds: round(baseline.seconds, 1),
    baseline_add_cpu_seconds: round(baseline.cpu, 1),
    baseline_peak_rss_mb: baseline.peakMb,
    targets_met: clean.every((r) => Number(r.cer_pct) <= Number(r.target_pct)),
    every_page_found: rows.every((r) => String(r.phrase_hit_rate).split('/')[0] === String(r.pages)),
    rows,
  };
}
