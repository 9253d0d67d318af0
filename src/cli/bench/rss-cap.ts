/**
 * The CI memory-regression cap (`ragdesk bench --max-rss-mb N`): every measured peak RSS is checked against N,
 * and a failed or unmeasured phase counts as over (a crash must not pass as "low memory").
 */
export interface PeakRss {
  /** What was measured, e.g. "scale ingest 100000 chunks". */
  label: string;
  peak_rss_mb: number | undefined;
}

/** The measurements above the cap (none when no cap was given), as sentences for the log. */
export function overRssCap(peaks: PeakRss[], capMb: number | undefined): string[] {
  if (capMb === undefined) return [];
  if (!Number.isFinite(capMb) || capMb <= 0) throw new Error(`--max-rss-mb must be a positive number of MB, not ${capMb}`);
  return peaks
    .filter((p) => p.peak_rss_mb === undefined || !Number.isFinite(p.peak_rss_mb) || p.peak_rss_mb > capMb)
    .map((p) =>
      p.peak_rss_mb === undefined || !Number.isFinite(p.peak_rss_mb)
        ? `${p.label}: no peak RSS measured (the phase failed)`
        : `${p.label}: peak RSS ${p.peak_rss_mb} MB above the ${capMb} MB cap`,
    );
}

/** Peak RSS of this process so far, threads (the embedding worker) included, in MB. */
export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
