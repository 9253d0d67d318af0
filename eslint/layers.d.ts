import type { Rule } from 'eslint';

export declare const LAYERS: Record<string, { may: string[]; banned: RegExp[]; onlyPackages?: string[] }>;
export declare const CORE_SUBLAYERS: string[][];
export declare function coreLevel(file: string): { top: string; level: number | undefined } | undefined;
export declare const layersRule: Rule.RuleModule;
