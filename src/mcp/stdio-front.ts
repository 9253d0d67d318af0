import { PassThrough, type Readable, type Writable } from 'node:stream';
import { initializeResult } from './server-info.js';
import type { RunningStdio, StdioServerOptions } from './stdio.js';
import TOOL_LIST_JSON from './tool-list.json';

/**
 * The first lines of an MCP stdio session, answered before the MCP SDK is loaded. Loading the SDK (its types build
 * hundreds of zod schemas) and the server around it was ~130 ms of the ~300 ms between a client spawning
 * `ragdesk mcp` and its `tools/list` answer. The front answers the three requests a client sends first, the way the
 * SDK server would (server-info.ts; stdio-front.test.ts holds them to the SDK server's own answers):
 * - the first well-formed `initialize`, from server-info.ts;
 * - `tools/list`, from tool-list.json (what server.ts lists);
 * - `ping`.
 * Every other line, the first `initialize` among them, is kept in arrival order and handed to the SDK server
 * (stdio.ts) once it is loaded: in the background right after `tools/list` was answered, shortly after
 * `notifications/initialized`, or at once for anything the front does not answer. The SDK server reads the kept
 * lines first, so it learns the client from the same `initialize` (capabilities such as sampling, its name); its
 * own answer to that request is not sent (stdio.ts `answered`). From then on every line goes to the SDK server.
 * A client that leaves after listing the tools never loads the SDK.
 */

/** Delay between `notifications/initialized` and loading the SDK server, for a client that does not list tools. */
const EAGER_HANDOVER_MS = 250;

/** What the SDK server is started with, besides its streams. */
export type HandoverOptions = Omit<StdioServerOptions, 'stdin' | 'stdout' | 'answered' | 'warmNow'>;

export interface FrontOptions {
  /**
   * The SDK server's options, asked for at the handover: what they need (settings, the logger) loads after the
   * first answers too. A rejection ends the session: the front closes.
   */
  prepare: () => HandoverOptions | Promise<HandoverOptions>;
  stdin?: Readable;
  stdout?: Writable;
}

export interface RunningFront {
  /** The SDK server, once lines were handed to it (undefined while the front answers alone). */
  readonly server: Promise<RunningStdio> | undefined;
  /** Resolves when the client closes stdin. */
  closed: Promise<void>;
  close(): Promise<void>;
}

type Id = string | number;
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A JSON-RPC request id as the SDK's schema takes it: a string or an integer. */
const isId = (v: unknown): v is Id => typeof v === 'string' || Number.isInteger(v);
const isRequest = (m: Message, method: string): m is Message & { id: Id } =>
  m.jsonrpc === '2.0' && m.method === method && isId(m.id) && (m.params === undefined || isObject(m.params));

/**
 * An `initialize` the SDK's schema accepts, as far as the answer depends on it: a protocol version, capabilities
 * whose every entry is an object (sampling, roots, elicitation, experimental, tasks), the client's name and version.
 */
function initializeParams(m: Message): { protocolVersion: string } | undefined {
  if (!isRequest(m, 'initialize') || !isObject(m.params)) return undefined;
  const { protocolVersion, capabilities, clientInfo } = m.params;
  if (typeof protocolVersion !== 'string' || !isObject(capabilities) || !Object.values(capabilities).every(isObject)) return undefined;
  if (!isObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') return undefined;
  return { protocolVersion };
}

/** Cursor and _meta, when present, have the types ListToolsRequestSchema and PingRequestSchema want. */
function plainParams(m: Message): boolean {
  if (m.params === undefined) return true;
  const p = m.params as Record<string, unknown>;
  return (p.cursor === undefined || typeof p.cursor === 'string') && (p._meta === undefined || isObject(p._meta));
}

export function startStdioFront(options: FrontOptions): RunningFront {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  /** Lines for the SDK server, in arrival order. */
  const kept: Buffer[] = [];
  /** Ids of kept requests the front answered (the first `initialize`). */
  const answered: Id[] = [];
  let initialized = false;
  let listed = false;
  let partial: Buffer = Buffer.alloc(0);
  let server: Promise<RunningStdio> | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));

  const reply = (id: Id, result: unknown) => stdout.write(`${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`);

  /** Answers a line the front can answer; false for any other, which the SDK server gets. */
  const answer = (line: Buffer): boolean => {
    let m: Message;
    try {
      m = JSON.parse(line.toString('utf8')) as Message;
    } catch {
      return false;
    }
    if (!isObject(m)) return false;
    if (!initialized) {
      const init = initializeParams(m);
      if (init) {
        initialized = true;
        answered.push(m.id as Id);
        reply(m.id as Id, initializeResult(init.protocolVersion));
        kept.push(line);
        return true;
      }
    }
    if (isRequest(m, 'tools/list') && plainParams(m)) {
      reply(m.id, { tools: TOOL_LIST_JSON });
      listed = true;
      setImmediate(handover);
      return true;
    }
    if (isRequest(m, 'ping') && plainParams(m)) {
      reply(m.id, {});
      return true;
    }
    if (m.jsonrpc === '2.0' && m.method === 'notifications/initialized' && m.id === undefined) {
      setTimeout(handover, EAGER_HANDOVER_MS).unref();
    } else {
      setImmediate(handover);
    }
    return false;
  };

  const onData = (chunk: Buffer) => {
    let data = partial.length > 0 ? Buffer.concat([partial, chunk]) : chunk;
    // A newline byte never occurs inside a UTF-8 sequence: lines can be cut out of the bytes.
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
      const end = nl > 0 && data[nl - 1] === 0x0d ? nl - 1 : nl;
      const line = data.subarray(0, end);
      data = data.subarray(nl + 1);
      if (!answer(line)) kept.push(line);
    }
    partial = data.length > 0 ? Buffer.from(data) : Buffer.alloc(0);
  };
  let ended = false;
  const onEnd = () => {
    ended = true;
    resolveClosed();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);

  /** Loads the SDK server and gives it the kept lines, then every line that follows. */
  function handover(): void {
    if (server) return;
    server = Promise.all([import('./stdio.js'), options.prepare()]).then(([{ startStdioServer }, prepared]) => {
      // Synchronous from here on: no line can arrive between the kept ones and the stream that follows them.
      const input = new PassThrough();
      for (const line of kept) input.write(Buffer.concat([line, Buffer.from('\n')]));
      kept.length = 0;
      if (partial.length > 0) input.write(partial);
      stdin.off('data', onData);
      if (ended) input.end();
      else {
        stdin.on('data', (chunk: Buffer) => input.write(chunk));
        stdin.once('end', () => input.end());
        stdin.once('close', () => input.end());
      }
      return startStdioServer({ ...prepared, stdin: input, stdout, answered, warmNow: listed });
    });
    // Nothing to hand over to: the session ends (the caller learns why from its own prepare).
    server.catch(() => resolveClosed());
  }

  return {
    get server() {
      return server;
    },
    // Once handed over, closed when the SDK server has read its last line too.
    closed: closed.then(async () => void (await (await server)?.closed)),
    async close() {
      resolveClosed();
      await (await server)?.close();
    },
  };
}
