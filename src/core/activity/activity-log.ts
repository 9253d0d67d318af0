import fs from 'node:fs';
import path from 'node:path';
import {
  ActivityEntrySchema,
  ListActivityInputSchema,
  type ActivityEntry,
  type ListActivityInput,
  type ListActivityResult,
} from '../../shared/contract/keys.js';
import { writeFileAtomic } from '../util/json-file.js';

export const DEFAULT_ACTIVITY_KEEP = 1000;

/** Argument names whose values are never logged, only their size. */
const SECRET = /(^|_)(key|token|secret|password|authorization|api_key)$/i;
const CONTENT = /^(content|data_base64|text)$/;
const MAX_STRING = 120;
const MAX_ITEMS = 5;

/**
 * A short, safe summary of tool arguments for the activity log: secrets become `[redacted]`, document content
 * becomes its length, long strings are cut, lists show their first few items and their length.
 */
export function summarizeArgs(args: unknown, depth = 0): Record<string, unknown> {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (SECRET.test(k)) out[k] = '[redacted]';
    else if (CONTENT.test(k)) out[k] = typeof v === 'string' ? `[${v.length} chars]` : '[omitted]';
    else out[k] = summarizeValue(v, depth);
  }
  return out;
}

function summarizeValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return v.length > MAX_STRING ? `${v.slice(0, MAX_STRING)}… [${v.length} chars]` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= 2) return Array.isArray(v) ? `[${v.length} items]` : '[object]';
  if (Array.isArray(v)) {
    const head = v
      .slice(0, MAX_ITEMS)
      .map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? summarizeArgs(x, depth + 1) : summarizeValue(x, depth + 1)));
    return v.length > MAX_ITEMS ? { count: v.length, first: head } : head;
  }
  return summarizeArgs(v, depth + 1);
}

/**
 * The last N MCP tool calls in `<data>/activity.jsonl`, one JSON object a line. Appends are synchronous
 * single writes (a line is never half-written for a reader); when the file holds twice the limit it is cut
 * back to the newest N.
 */
export class ActivityLog {
  private fd: number | undefined;
  private lines = -1;

  constructor(
    readonly file: string,
    readonly keep = DEFAULT_ACTIVITY_KEEP,
  ) {}

  private open(): number {
    if (this.fd === undefined) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = fs.openSync(this.file, 'a', 0o600);
      if (this.lines < 0) this.lines = this.readLines().length;
    }
    return this.fd;
  }

  append(entry: ActivityEntry): void {
    try {
      fs.writeSync(this.open(), `${JSON.stringify(entry)}\n`);
      this.lines++;
      if (this.lines >= this.keep * 2) this.compact();
    } catch {
      // The activity log must never fail a tool call.
    }
  }

  private readLines(): string[] {
    try {
      return fs
        .readFileSync(this.file, 'utf8')
        .split('\n')
        .filter((l) => l.trim().length > 0);
    } catch {
      return [];
    }
  }

  private compact(): void {
    const keep = this.readLines().slice(-this.keep);
    this.close();
    writeFileAtomic(this.file, keep.length ? `${keep.join('\n')}\n` : '', 0o600);
    this.lines = keep.length;
  }

  /** Newest first, optionally filtered by tool or key name. */
  list(input: Partial<ListActivityInput> = {}): ListActivityResult {
    const limit = input.limit ?? ListActivityInputSchema.shape.limit.parse(undefined);
    const entries: ActivityEntry[] = [];
    for (const line of this.readLines().slice(-this.keep)) {
      try {
        const parsed = ActivityEntrySchema.safeParse(JSON.parse(line));
        if (!parsed.success) continue;
        if (input.tool && parsed.data.tool !== input.tool) continue;
        if (input.key_name && parsed.data.key_name !== input.key_name) continue;
        entries.push(parsed.data);
      } catch {
        // A torn or foreign line is skipped.
      }
    }
    entries.reverse();
    return { total: entries.length, entries: entries.slice(0, limit) };
  }

  close(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
  }
}

const logs = new Map<string, ActivityLog>();

/** One ActivityLog per file in this process (the MCP server writes it, the contract reads it). */
export function activityLogFor(file: string): ActivityLog {
  const abs = path.resolve(file);
  let log = logs.get(abs);
  if (!log) {
    log = new ActivityLog(abs);
    logs.set(abs, log);
  }
  return log;
}
