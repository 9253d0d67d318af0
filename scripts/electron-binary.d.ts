/** Types of electron-binary.js (plain JavaScript: `npm start` runs it before anything is built). */
export interface ElectronFound {
  path?: string;
  why?: string;
}
export interface FetchOptions {
  timeoutMs?: number;
}
export interface EnsureOptions extends FetchOptions {
  env?: NodeJS.ProcessEnv;
  onFetch?: (version: string) => void;
}
export function failureMemoPath(root: string): string;
export function electronBinary(root: string): ElectronFound;
export function fetchElectron(root: string, options?: FetchOptions): Promise<{ ok: true } | { ok: false; why: string }>;
export function ensureElectron(root: string, options?: EnsureOptions): Promise<ElectronFound>;
