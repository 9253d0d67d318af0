import * as lancedb from '@lancedb/lancedb';

/** LanceDB's own default cache sizes (0.31): what a Session holds before it evicts, in its own accounting. */
export const INDEX_CACHE_BYTES = 6 * 1024 ** 3;
export const METADATA_CACHE_BYTES = 1024 ** 3;

/**
 * The metadata cache of the store's shared connection, which reads and writes the documents table (and lists
 * tables; chunk tables have connections of their own). LanceDB caches each table version's manifest and file
 * metadata, and every write makes a version, so with its default (1 GiB) a process written one document at a time
 * grew by what every old version of the documents table left (SciFact, one add and one search at a time: glibc's heap
 * in use +60-90 MB by 2,000 writes and still growing; docs/benchmarks.md, round of 2026-12-07).
 * A version counted ~40 KB in lance-session.test.ts (more with more fragments): 64 MiB holds the current ones many
 * times over, and LanceDB evicts the dead ones.
 */
export const SHARED_METADATA_CACHE_BYTES = 64 * 1024 ** 2;

/**
 * A chunk table renews its connection (OwnConnection.reopen) after upkeep once its caches hold this much, by
 * LanceDB's accounting: far below the index cache, so that eviction never starts, and what the dead indexes hold
 * stays small.
 *
 * Why: LanceDB (0.31) caches an index by its id, and every full-text build beside writes (services/indexing.ts)
 * makes a new one; the old ones stay in the cache, unused, until it is full. Then every few queries paid for the
 * eviction. Measured (docs/benchmarks.md, round of 2026-12-06 22:17): SciFact written one document at a time
 * through one long-lived process (5,183 adds, 103 upkeep runs), the cache at 6.9 GB by its accounting (RSS 1.1 GB);
 * every third full-text query of the same table handle took 250-640 ms instead of 2-5 ms, with no write between
 * them. With a 64 GB index cache the same run had no slow query (its cache reached 37.9 GB), with a 256 MB one they
 * came from the start. A new process on the same data answered in 15-46 ms.
 * Why this bound (rounds of 2026-12-07): how LanceDB's count relates to memory depends on the table. On SciFact
 * (10k chunks) it is ~6-8× what the caches hold (glibc's heap in use, mallinfo2: 2.8 GB counted against ~400 MB
 * held); on a 1M-chunk table it is about what they hold (0.24 GiB counted, ~300 MB in use once warm), and each
 * full-text build there leaves ~0.2 GiB behind. An agent writing a 1M-chunk KB every 30 s while a search loop ran
 * (7 minutes, 4 upkeep runs): with 1 GiB no renewal came, the count reached 0.80 GiB and RSS 1.2 GB (peak 1.40);
 * with 256 MiB the table renewed after every run, RSS stayed at 0.85-1.0 GB (peak 1.21, the rest being the
 * full-text build's own memory); searches p50 181 against 184 ms, p99 623 against 440 ms (one run each: both are
 * dominated by the rows upkeep has not indexed yet and the builds on the same 2 cores, not by the renewals).
 */
export const RENEW_AT_BYTES = 256 * 1024 ** 2;

/**
 * Indexes of tables up to this many rows are loaded whole into a connection's cache (at start: services/warm-up.ts;
 * into a renewed connection before it replaces the old one: ChunkTable.renewConnection). On SciFact (9.6k chunks) the
 * first hybrid search 3 s after start took 1.15-1.38× a warm one with them loaded, 1.30-2.94× without
 * (docs/benchmarks.md). Past it, loading every partition would hold more memory than the searches need (at 1M chunks
 * ~0.5 GB for the vector index alone), so only what searches read is loaded.
 */
export const PREWARM_MAX_ROWS = 250_000;

/**
 * A LanceDB connection with caches of its own (a Session). Each chunk table has one: what one KB's indexes leave in
 * the cache is dropped with its connection, and neither evicts another KB's (see RENEW_AT_BYTES). The store's shared
 * connection (documents table, table listing) is opened through it too, for its bounded metadata cache
 * (SHARED_METADATA_CACHE_BYTES), and keeps only the connection.
 */
export class OwnConnection {
  private constructor(
    readonly db: lancedb.Connection,
    private session: lancedb.Session | undefined,
    private readonly dir: string,
    private readonly metadataBytes: number,
  ) {}

  /** `metadataBytes`: the metadata cache's bound (the store's shared connection: SHARED_METADATA_CACHE_BYTES). */
  static async open(dir: string, metadataBytes = METADATA_CACHE_BYTES): Promise<OwnConnection> {
    const session = new lancedb.Session(BigInt(INDEX_CACHE_BYTES), BigInt(metadataBytes));
    return new OwnConnection(await lancedb.connect(dir, { session }), session, dir, metadataBytes);
  }

  /** What the caches hold, by LanceDB's accounting (which counts far more than the memory held: see RENEW_AT_BYTES). */
  get cacheBytes(): number {
    return this.session ? Number(this.session.sizeBytes()) : 0;
  }

  /** A new connection to the same database, with empty caches. */
  reopen(): Promise<OwnConnection> {
    return OwnConnection.open(this.dir, this.metadataBytes);
  }

  /**
   * Close the connection and let go of its Session. What the caches hold is freed only when no table, connection or
   * JS object holds the Session any more: the tables and the connection let go when closed, the Session's JS object
   * when V8 collects it, which it is in no hurry to do (the object is small, the native memory behind it is not
   * V8's). A process that drops connections (ChunkTable.renewConnection) collects after closing one: measured with
   * LanceDB alone (SciFact, 1,500 single-row adds, each followed by a full-text search, the index rebuilt every 40
   * adds, a new Session every 200), glibc's heap in use reached 909 MB without a collection and 124-152 MB with
   * one after each renewal (docs/benchmarks.md, round of 2026-12-07).
   */
  close(): void {
    if (this.db.isOpen()) this.db.close();
    this.session = undefined;
  }
}

/** A connection handed to a chunk table: the LanceDB connection, and its own Session's wrapper when it has one. */
export function connectionParts(conn: lancedb.Connection | OwnConnection): { db: lancedb.Connection; own?: OwnConnection } {
  return conn instanceof OwnConnection ? { db: conn.db, own: conn } : { db: conn };
}
