import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiKeyInfo, CreatedKey, KbRights } from '../../shared/contract/keys.js';
import type { ParsedInput } from '../../shared/contract/index.js';
import { RagError } from '../../shared/errors.js';
import { acquireExclusive, isPidAlive, removeIfUnchanged, sleepSync } from '../util/exclusive-file.js';
import { readJsonFile, writeFileAtomic } from '../util/json-file.js';
import type { Principal } from './scope.js';

/** What keys.json holds for each key: its sha256, never the key. */
export interface StoredKey {
  id: string;
  name: string;
  hash: string;
  prefix: string;
  read: KbRights;
  write: KbRights;
  created_at: string;
  last_used_at: string | null;
}

interface KeysFile {
  version: 1;
  keys: StoredKey[];
}

export const KEY_PREFIX = 'rdk_';
const LAST_USED_EVERY_MS = 60_000;
/** After a busy keys.json, the next try at recording last use. */
const TOUCH_RETRY_MS = 5_000;
/** keys.json.lock is held for a read, a small write and an fsync: one older than this was abandoned. */
const KEYS_LOCK_STALE_MS = 10_000;

function keysLockIsStale(text: string, ageMs: number): boolean {
  try {
    const { pid } = JSON.parse(text) as { pid?: unknown };
    if (typeof pid === 'number' && pid !== process.pid && !isPidAlive(pid)) return true;
  } catch {
    // An empty or foreign lock (an older ragdesk created it empty) is judged by age alone.
  }
  return ageMs > KEYS_LOCK_STALE_MS;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time comparison of two secrets of any length (hashing both first). */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** A listed key: the stored record without its hash. */
function info(k: StoredKey): ApiKeyInfo {
  const { hash: _h, ...rest } = k;
  return rest;
}

/**
 * API keys in `<data>/keys.json` (mode 0600): sha256 hashes, names and per-KB rights. Several processes may
 * use the file (the server verifies, `ragdesk keys` edits): every change is a locked read-modify-write with an
 * atomic rename, and readers reload when the file changes.
 */
export class KeyStore {
  private cache: { stamp: string; byHash: Map<string, StoredKey> } | undefined;
  private readonly lastTouched = new Map<string, number>();

  constructor(readonly file: string) {}

  private read(): KeysFile {
    const data = readJsonFile<KeysFile>(this.file, { version: 1, keys: [] });
    return { version: 1, keys: Array.isArray(data.keys) ? data.keys : [] };
  }

  private stamp(): string {
    try {
      const st = fs.statSync(this.file);
      return `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return 'none';
    }
  }

  private byHash(): Map<string, StoredKey> {
    const stamp = this.stamp();
    if (this.cache?.stamp !== stamp) {
      this.cache = { stamp, byHash: new Map(this.read().keys.map((k) => [k.hash, k])) };
    }
    return this.cache.byHash;
  }

  /**
   * Run a read-modify-write of keys.json under `keys.json.lock`, shared by every process (created exclusively; a
   * lock whose process died, or older than 10 s, is taken over, see util/exclusive-file.ts). `wait: false` tries
   * once and answers false instead of waiting (the request path must never block on another process).
   */
  private mutate<T>(fn: (data: KeysFile) => T): T;
  private mutate<T>(fn: (data: KeysFile) => T, wait: false): { done: true; value: T } | { done: false };
  private mutate<T>(fn: (data: KeysFile) => T, wait = true): T | { done: true; value: T } | { done: false } {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const lockFile = `${this.file}.lock`;
    const mine = JSON.stringify({ pid: process.pid, nonce: randomBytes(8).toString('hex'), at: new Date().toISOString() });
    const deadline = Date.now() + 5000;
    for (;;) {
      const outcome = acquireExclusive(lockFile, mine, { isStale: keysLockIsStale, ...(wait ? {} : { rounds: 1, waitMs: 0 }) });
      if (outcome.ok) break;
      if (!wait) return { done: false };
      if (Date.now() > deadline) throw new RagError('busy', 'keys.json is locked by another process');
      sleepSync(10);
    }
    try {
      const data = this.read();
      const out = fn(data);
      writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
      this.cache = undefined;
      return wait ? out : { done: true, value: out };
    } finally {
      removeIfUnchanged(lockFile, mine);
    }
  }

  list(): ApiKeyInfo[] {
    return this.read().keys.map(info);
  }

  /** Create a key; the returned `key` is the only time it is ever shown. */
  create(input: ParsedInput<'createKey'>): CreatedKey {
    const read: KbRights = input.read ?? (input.write === undefined ? '*' : []);
    const write: KbRights = input.write ?? [];
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: StoredKey = {
      id: `key_${randomBytes(6).toString('hex')}`,
      name: input.name,
      hash: hashKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      read: Array.isArray(read) ? [...new Set(read)] : read,
      write: Array.isArray(write) ? [...new Set(write)] : write,
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    this.mutate((data) => {
      if (data.keys.some((k) => k.name === record.name)) {
        throw new RagError('invalid_parameter', `a key named "${record.name}" already exists`, { details: { name: record.name } });
      }
      data.keys.push(record);
    });
    return { ...info(record), key };
  }

  /** Revoke by id or name; it stops working at once in every process using this data dir. */
  revoke(idOrName: string): { id: string; name: string; revoked: boolean } {
    return this.mutate((data) => {
      const i = data.keys.findIndex((k) => k.id === idOrName || k.name === idOrName);
      if (i < 0) throw new RagError('invalid_parameter', `no key with id or name "${idOrName}"`, { details: { key: idOrName } });
      const [gone] = data.keys.splice(i, 1);
      return { id: gone!.id, name: gone!.name, revoked: true };
    });
  }

  /**
   * Take a KB out of every key's rights (it is being deleted): a KB created later with the same id starts with no
   * key able to read it. Keys with `'*'` keep covering every KB, as they always do. Returns the keys changed.
   */
  forgetKb(kbId: string): number {
    return this.mutate((data) => {
      let changed = 0;
      for (const k of data.keys) {
        const before = JSON.stringify([k.read, k.write]);
        if (Array.isArray(k.read)) k.read = k.read.filter((id) => id !== kbId);
        if (Array.isArray(k.write)) k.write = k.write.filter((id) => id !== kbId);
        if (JSON.stringify([k.read, k.write]) !== before) changed++;
      }
      return changed;
    });
  }

  /** The principal for a presented key, or undefined when it is unknown or revoked. */
  verify(presented: string): Principal | undefined {
    if (!presented.startsWith(KEY_PREFIX) || presented.length > 200) return undefined;
    const record = this.byHash().get(hashKey(presented));
    if (!record) return undefined;
    this.touch(record);
    return { kind: 'key', id: record.id, name: record.name, read: record.read, write: record.write };
  }

  /**
   * Record last use, at most once a minute per key, best effort and off the request's path: after the current
   * request is answered, one try at the lock without waiting (another process holding it only delays the stamp
   * until a later request).
   */
  private touch(record: StoredKey): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(record.id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastTouched.set(record.id, now);
    setImmediate(() => {
      try {
        const outcome = this.mutate((data) => {
          const k = data.keys.find((x) => x.id === record.id);
          if (k) k.last_used_at = new Date(now).toISOString();
        }, false);
        if (!outcome.done) this.lastTouched.set(record.id, now - LAST_USED_EVERY_MS + TOUCH_RETRY_MS);
      } catch {
        // An unwritable keys.json only loses the timestamp.
      }
    });
  }
}

const stores = new Map<string, KeyStore>();

/** One KeyStore per keys.json in this process (the server, the contract handlers and the CLI share it). */
export function keyStoreFor(file: string): KeyStore {
  const abs = path.resolve(file);
  let store = stores.get(abs);
  if (!store) {
    store = new KeyStore(abs);
    stores.set(abs, store);
  }
  return store;
}
