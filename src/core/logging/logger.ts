import fs from 'node:fs';
import path from 'node:path';
import { pino, type Logger, type StreamEntry } from 'pino';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';

export type { Logger };

export interface LoggerOptions {
  /** Folder of the rotating log files (`<data>/logs`). Omit for no file. */
  dir?: string;
  /** File name inside `dir` (default `ragdesk.log`). */
  file?: string;
  /** Minimum level written to the file (default `info`, or $RAGDESK_LOG_LEVEL). */
  level?: pino.LevelWithSilent;
  /**
   * Also write records at or above this level to stderr (never stdout: in `ragdesk mcp` stdout carries the
   * protocol). Default: none.
   */
  stderrLevel?: pino.Level;
  /** Values that must never appear in a log line (e.g. the lock token); replaced by `[redacted]`. */
  secrets?: string[];
  /** Rotate at this size (default 10M), keeping this many old files (default 5). */
  size?: `${number}${'K' | 'M' | 'G'}`;
  keep?: number;
}

/** Field paths pino removes from every record: keys, tokens and auth headers at any of the usual depths. */
export const REDACT_PATHS = [
  'key',
  'token',
  'authorization',
  'api_key',
  'password',
  'secret',
  'cookie',
  '*.key',
  '*.token',
  '*.authorization',
  '*.api_key',
  '*.password',
  '*.secret',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** API keys look like `rdk_` + 43 base64url characters; anything shaped like one is scrubbed from messages. */
const KEY_PATTERN = /rdk_[A-Za-z0-9_-]{16,}/g;
const BEARER_PATTERN = /(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(KEY_PATTERN, 'rdk_[redacted]').replace(BEARER_PATTERN, '$1[redacted]');
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[redacted]');
  return out;
}

export interface RagLogger {
  logger: Logger;
  /** Add a secret to scrub from now on (e.g. the lock token once the lock is taken). */
  addSecret(secret: string): void;
  /** Flush and close the file. */
  close(): Promise<void>;
}

/**
 * Structured JSON logs (pino) to `<data>/logs/ragdesk.log`, rotated by size. Secrets are removed twice: known
 * field names by pino's redaction, and key- or token-shaped strings inside messages by a scrub hook.
 */
export function createLogger(options: LoggerOptions = {}): RagLogger {
  const secrets = [...(options.secrets ?? [])];
  const streams: StreamEntry[] = [];
  let file: RotatingFileStream | undefined;
  const level = options.level ?? (process.env.RAGDESK_LOG_LEVEL as pino.LevelWithSilent | undefined) ?? 'info';
  if (options.dir) {
    fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    file = createStream(options.file ?? 'ragdesk.log', {
      path: options.dir,
      size: options.size ?? '10M',
      rotate: options.keep ?? 5,
      mode: 0o600,
    });
    file.on('error', () => undefined);
    streams.push({ level: level === 'silent' ? 'fatal' : level, stream: file });
  }
  if (options.stderrLevel) streams.push({ level: options.stderrLevel, stream: process.stderr });
  const logger = pino(
    {
      level: streams.length === 0 ? 'silent' : level,
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          const clean = args.map((a) => (typeof a === 'string' ? scrubSecrets(a, secrets) : a)) as Parameters<typeof method>;
          return method.apply(this, clean);
        },
      },
    },
    pino.multistream(streams.length ? streams : [{ level: 'fatal', stream: { write: () => undefined } }]),
  );
  return {
    logger,
    addSecret(secret) {
      if (secret && !secrets.includes(secret)) secrets.push(secret);
    },
    close() {
      return new Promise<void>((resolve) => {
        if (!file) return resolve();
        const f = file;
        file = undefined;
        f.end(() => resolve());
        setTimeout(resolve, 2000).unref();
      });
    },
  };
}

/** A logger that drops everything (tests, in-memory servers). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Where the log files of a data dir live. */
export function logFilePath(logsDir: string, file = 'ragdesk.log'): string {
  return path.join(logsDir, file);
}
