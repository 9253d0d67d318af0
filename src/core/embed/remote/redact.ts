/**
 * Every message a remote embedder builds (errors, status, log lines) goes through a Redactor: the API keys it
 * knows are replaced wherever they appear (a server may echo one back in an error body), and so is anything
 * shaped like a bearer token or an OpenAI-style key.
 */
export type Redactor = (text: string) => string;

const BEARER = /(Bearer\s+)[^\s"',;]+/gi;
const KEY_SHAPED = /\b(sk|rk|pk)-[A-Za-z0-9_-]{12,}/g;
const MIN_SECRET = 4;

export const REDACTED = '[redacted]';

export function makeRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const s of known) out = out.split(s).join(REDACTED);
    return out.replace(BEARER, `$1${REDACTED}`).replace(KEY_SHAPED, `$1-${REDACTED}`);
  };
}

export type RemoteLogLevel = 'debug' | 'info' | 'warn';
export type RemoteLog = (level: RemoteLogLevel, message: string) => void;

/** Default sink: warnings to stderr (never stdout: `ragdesk mcp` speaks the protocol there). */
export const stderrLog: RemoteLog = (level, message) => {
  if (level === 'warn') process.stderr.write(`ragdesk: ${message}\n`);
};

/** A log whose every line is redacted first. */
export function redactedLog(log: RemoteLog, redact: Redactor): RemoteLog {
  return (level, message) => {
    try {
      log(level, redact(message));
    } catch {
      // a failing sink never breaks an embedding call
    }
  };
}
