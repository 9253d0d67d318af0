import { RagError } from '../../../shared/errors.js';
import type { Prefixes } from '../presets.js';
import { knownRemotePrefixes } from './known-prefixes.js';

/**
 * Remote embedders are named by a KB's `embedding_model` string:
 *
 *     <provider>:<model>[@<base-url>][?<option>=<value>&...]
 *
 * - provider: `ollama` (a local Ollama server, `POST <base>/api/embed`) or `openai` (any OpenAI-compatible
 *   `POST <base>/embeddings`).
 * - model: the name the server knows (`nomic-embed-text`, `nomic-embed-text:v1.5`, `text-embedding-3-small`,
 *   `BAAI/bge-m3`); letters, digits and `. _ - : /`.
 * - base-url: `http(s)://host[:port][/path]`. Defaults: `http://127.0.0.1:11434` (ollama), `https://api.openai.com/v1`
 *   (openai). Credentials in the URL are refused: they would be stored in kbs.json.
 * - options (form-encoded, each at most once): `key_env` (environment variable holding the API key; openai's
 *   default is OPENAI_API_KEY, ollama sends none unless told), `dimensions` (ask the server for N-d vectors),
 *   `batch` (texts per request), `timeout_ms` (per request), `retries` (after the first attempt),
 *   `query_prefix` / `passage_prefix` (override the known-model table; empty means none).
 *
 * API keys never appear in the string; only the name of the variable that holds one.
 */
export type RemoteProvider = 'ollama' | 'openai';

export interface RemoteSpec {
  /** The model string as configured (trimmed). */
  model: string;
  provider: RemoteProvider;
  /** The model name sent to the server. */
  name: string;
  /** Base URL without a trailing slash. */
  baseUrl: string;
  /** The URL embeddings are posted to. */
  endpoint: string;
  /** `<provider>:<name>@<endpoint>`: what `resolved` reports. Never holds a secret. */
  resolved: string;
  /** Environment variable holding the API key; undefined: send none. */
  keyEnv?: string;
  /** True when key_env was given explicitly (a missing variable is then an error, not "no key"). */
  keyEnvExplicit: boolean;
  dimensions?: number;
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
  prefixes: Prefixes;
}

export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';
export const DEFAULT_OPENAI_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_KEY_ENV = 'OPENAI_API_KEY';

const PROVIDER = /^(ollama|openai):/i;
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const OPTIONS = ['key_env', 'dimensions', 'batch', 'timeout_ms', 'retries', 'query_prefix', 'passage_prefix'] as const;
type OptionName = (typeof OPTIONS)[number];

/** True when the model string names a remote embedder (`ollama:` or `openai:`), valid or not. */
export function isRemoteModel(model: string): boolean {
  return PROVIDER.test(model.trim());
}

function invalid(reason: string): RagError {
  // The string itself is not echoed: whatever a user pasted into it stays out of messages and logs.
  return new RagError(
    'invalid_parameter',
    `invalid remote embedding model: ${reason}. Syntax: ollama:<model>[@<url>][?options] or openai:<model>[@<url>][?options]`,
  );
}

function intOption(name: OptionName, raw: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(raw)) throw invalid(`${name} must be a whole number`);
  const n = Number(raw);
  if (n < min || n > max) throw invalid(`${name} must be between ${min} and ${max}`);
  return n;
}

function parseOptions(query: string): Partial<Record<OptionName, string>> {
  const out: Partial<Record<OptionName, string>> = {};
  if (!query) return out;
  for (const [name, value] of new URLSearchParams(query)) {
    if (!(OPTIONS as readonly string[]).includes(name)) {
      const shown = /^[a-z_]{1,32}$/.test(name) ? `"${name}"` : 'an option';
      throw invalid(`unknown option ${shown} (known: ${OPTIONS.join(', ')}; API keys go in an environment variable named by key_env)`);
    }
    if (out[name as OptionName] !== undefined) throw invalid(`option ${name} is given twice`);
    out[name as OptionName] = value;
  }
  return out;
}

function parseBaseUrl(raw: string | undefined, provider: RemoteProvider): string {
  if (raw === undefined) return provider === 'ollama' ? DEFAULT_OLLAMA_URL : DEFAULT_OPENAI_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('the part after "@" is not a URL (expected http://host:port or https://host/path)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('the URL must be http:// or https://');
  if (url.username || url.password)
    throw invalid('credentials in the URL are not allowed; put the API key in an environment variable and name it with key_env');
  if (url.hash || raw.includes('#')) throw invalid('the URL must not have a #fragment');
  if (!url.hostname) throw invalid('the URL has no host');
  let pathname = url.pathname.replace(/\/+$/, '');
  if (provider === 'ollama') pathname = pathname.replace(/\/api\/(embed|embeddings)$/, '');
  if (provider === 'openai') pathname = pathname.replace(/\/embeddings$/, '');
  return `${url.protocol}//${url.host}${pathname}`;
}

/** Parse and validate a remote model string; bad syntax is RagError('invalid_parameter'). Never touches the network. */
export function parseRemoteSpec(model: string): RemoteSpec {
  const trimmed = model.trim();
  const head = PROVIDER.exec(trimmed);
  if (!head) throw invalid('it must start with "ollama:" or "openai:"');
  const provider = head[1]!.toLowerCase() as RemoteProvider;
  let rest = trimmed.slice(head[0].length);
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  const at = rest.indexOf('@');
  const name = at >= 0 ? rest.slice(0, at) : rest;
  const rawUrl = at >= 0 ? rest.slice(at + 1) : undefined;
  if (!name) throw invalid('the model name is missing');
  if (!MODEL_NAME.test(name)) throw invalid('the model name may hold letters, digits and . _ - : / only (at most 200 characters)');
  if (rawUrl !== undefined && !rawUrl) throw invalid('the URL after "@" is empty');
  const baseUrl = parseBaseUrl(rawUrl, provider);
  const options = parseOptions(query);

  let keyEnv: string | undefined = provider === 'openai' ? DEFAULT_OPENAI_KEY_ENV : undefined;
  if (options.key_env !== undefined) {
    if (!ENV_NAME.test(options.key_env)) throw invalid('key_env must be an environment variable name (letters, digits, _)');
    keyEnv = options.key_env;
  }
  const known = knownRemotePrefixes(name);
  const prefixes: Prefixes = {
    query: options.query_prefix ?? known.query,
    passage: options.passage_prefix ?? known.passage,
  };
  for (const p of [prefixes.query, prefixes.passage]) if (p.length > 500) throw invalid('prefixes are at most 500 characters');

  const endpoint = provider === 'ollama' ? `${baseUrl}/api/embed` : `${baseUrl}/embeddings`;
  return {
    model: trimmed,
    provider,
    name,
    baseUrl,
    endpoint,
    resolved: `${provider}:${name}@${endpoint}`,
    ...(keyEnv ? { keyEnv } : {}),
    keyEnvExplicit: options.key_env !== undefined,
    ...(options.dimensions !== undefined ? { dimensions: intOption('dimensions', options.dimensions, 1, 65_536) } : {}),
    ...(options.batch !== undefined ? { batchSize: intOption('batch', options.batch, 1, 2048) } : {}),
    ...(options.timeout_ms !== undefined ? { timeoutMs: intOption('timeout_ms', options.timeout_ms, 100, 600_000) } : {}),
    ...(options.retries !== undefined ? { retries: intOption('retries', options.retries, 0, 10) } : {}),
    prefixes,
  };
}
