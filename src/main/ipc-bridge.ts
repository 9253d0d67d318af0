import { OWNER_SCOPE } from '../core/auth/scope.js';
import { Dispatcher, type Handlers } from '../core/dispatch/dispatcher.js';
import { internalErrorMiddleware, type InternalErrorLog } from '../core/dispatch/internal-errors.js';
import { desktopContract, type DesktopContract, type IpcReply } from '../shared/desktop.js';
import { RagError, toErrorEnvelope } from '../shared/errors.js';

/** Handlers of the desktop-only operations (settings, server status, open a file). */
export type DesktopHandlers = Handlers<DesktopContract>;

/**
 * The desktop-only operations behind the contract's rule for internal errors: the detail (stack, paths) goes to
 * `log` (the app's log) under a reference, and the window gets `internal` with that reference.
 */
export function desktopDispatcher(handlers: DesktopHandlers, log: () => InternalErrorLog): Dispatcher<DesktopContract> {
  const dispatcher = new Dispatcher(desktopContract, handlers);
  dispatcher.use(internalErrorMiddleware(log));
  return dispatcher;
}

export interface IpcBridgeOptions {
  /** The core's dispatcher with the window's rights (the owner's): `core.dispatch(method, input, OWNER_SCOPE)`. */
  dispatch: (method: string, input: unknown) => Promise<unknown>;
  /** The desktop app's own operations, when running inside Electron. */
  desktop?: Dispatcher<DesktopContract>;
}

/**
 * The one IPC entry point, as a plain function (no Electron): `(method, input) → {ok, result} | {ok:false, error}`.
 * A transport only: the dispatchers look the method up, parse and check; every failure becomes an error envelope
 * with a stable code, never a thrown exception or a stack trace.
 */
export function createIpcBridge(options: IpcBridgeOptions): (method: unknown, input: unknown) => Promise<IpcReply> {
  return async (method, input) => {
    try {
      if (typeof method !== 'string') throw new RagError('invalid_parameter', 'method must be a string');
      const result = options.desktop?.has(method)
        ? await options.desktop.dispatch(method, input, OWNER_SCOPE)
        : await options.dispatch(method, input);
      return { ok: true, result };
    } catch (err) {
      return { ok: false, error: toErrorEnvelope(err) };
    }
  };
}
