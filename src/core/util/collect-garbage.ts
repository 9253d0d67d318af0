import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | undefined;

/**
 * A full garbage collection now, which also gives the emptied heap pages back. V8 would otherwise keep a heap
 * sized for the work just done (up to twice what was live, heap-growth.ts) while the process goes on to work that
 * allocates little on it, such as LanceDB building indexes. `--expose-gc` set at run time only reaches contexts
 * created after it: the function comes from a new one and collects the whole isolate.
 */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}
