/** Runtime imports of `file` (absolute paths of project files). */
export declare function runtimeImports(file: string): string[];
/** A runtime import path from `start` back to `start` through `first`, or undefined. */
export declare function cycleThrough(start: string, first: string): string[] | undefined;
