import type { HealthStatus, Kb, ModelPreset } from '../../shared/contract/index.js';
import type { ErrorEnvelope } from '../../shared/errors.js';
import { WARNING_EMPTY_TEXT } from '../parse/assemble.js';
import { WARNING_NO_TEXT_LAYER } from '../parse/pdf-parser.js';
import type { ParsedDocument } from '../parse/types.js';
import { ocrFacts, ocrLowConfidenceMessage, ocrNothingMessage, ocrSuffix, type OcrFacts } from './ocr-verdict.js';

/** What the health report says about one file. */
export interface Verdict extends OcrFacts {
  status: HealthStatus;
  message: string;
  encoding?: string;
  encoding_confidence?: number;
  script?: string;
}

/** Below this detection confidence a legacy-encoded file is flagged: its text may be garbled. */
export const LOW_ENCODING_CONFIDENCE = 0.8;
/** Share of letters in scripts the KB's model was not trained on, above which a file is flagged. */
const UNCOVERED_SHARE = 0.3;
const SCRIPT_SAMPLE = 20_000;

/** The report status for an ingestion error. */
export function verdictForError(err: ErrorEnvelope): Verdict {
  const reason = typeof err.details?.reason === 'string' ? err.details.reason : undefined;
  switch (err.code) {
    case 'too_large':
      return { status: 'too_large', message: err.message };
    case 'unsupported_format':
      return { status: 'unsupported', message: err.message };
    case 'parse_failed':
      return { status: reason === 'encrypted' ? 'encrypted' : 'corrupt', message: err.message };
    default:
      return { status: 'error', message: `[${err.code}] ${err.message}` };
  }
}

/** The writing systems detectScripts tells apart, in the order a letter is tested against them. */
export const SCRIPTS: ReadonlyArray<[string, RegExp]> = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
  ['greek', /\p{Script=Greek}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['thai', /\p{Script=Thai}/u],
];

/** Letters per writing system in (a sample of) the text, and the main one. */
export function detectScripts(text: string): { main: string | undefined; shares: Record<string, number>; letters: number } {
  const counts = new Map<string, number>();
  let letters = 0;
  const sample = text.length > SCRIPT_SAMPLE ? text.slice(0, SCRIPT_SAMPLE) : text;
  for (let i = 0; i < sample.length; i++) {
    // A surrogate pair's code point (and its second unit skipped); a lone surrogate as itself.
    const cp = sample.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const script = scriptOf(cp);
    if (script === NOT_LETTER) continue;
    letters++;
    const name = script < SCRIPTS.length ? SCRIPTS[script]![0] : 'other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const shares: Record<string, number> = {};
  let main: string | undefined;
  for (const [name, n] of counts) {
    shares[name] = n / letters;
    if (!main || n > (counts.get(main) ?? 0)) main = name;
  }
  return { main, shares, letters };
}

/** scriptOf's answer for a code point that is no letter; SCRIPTS.length for a letter of no script listed. */
const NOT_LETTER = 100;
/** scriptOf's answers for the BMP, filled as code points are met (answer + 1; 0 = not yet known). */
const BMP_SCRIPT = new Uint8Array(0x10000);

/**
 * The index in SCRIPTS of a letter's script, SCRIPTS.length for none listed. A function of its own: a callback in
 * scriptOf that kept `ch` made every call of scriptOf allocate a context, cache hits too (64 MB per 20 MB `add`).
 */
function scriptIndex(ch: string): number {
  for (let i = 0; i < SCRIPTS.length; i++) if (SCRIPTS[i]![1].test(ch)) return i;
  return SCRIPTS.length;
}

/** The index in SCRIPTS of a code point's script, SCRIPTS.length for another letter, NOT_LETTER for no letter. */
function scriptOf(cp: number): number {
  const known = cp <= 0xffff ? BMP_SCRIPT[cp]! : 0;
  if (known) return known - 1;
  const ch = String.fromCodePoint(cp);
  let script = NOT_LETTER;
  if (/\p{L}/u.test(ch)) script = scriptIndex(ch);
  if (cp <= 0xffff) BMP_SCRIPT[cp] = script + 1;
  return script;
}

/**
 * Writing systems the KB's embedding model covers: 'all' for multilingual presets, latin only for English
 * presets, undefined (not checked) for models we know nothing about (folders, hub ids without a preset).
 */
export function coveredScripts(kb: Kb, presets: readonly ModelPreset[]): 'all' | Set<string> | undefined {
  const preset = presets.find((p) => p.kind === 'embedding' && (p.name === kb.embedding_model || p.model_id === kb.embedding_model));
  if (!preset) return undefined;
  const langs = preset.languages;
  if (langs.includes('multilingual') || langs.length > 2) return 'all';
  const scripts = new Set<string>();
  for (const lang of langs)
    scripts.add(lang === 'ru' || lang === 'uk' ? 'cyrillic' : lang === 'zh' || lang === 'ja' || lang === 'ko' ? 'cjk' : 'latin');
  return scripts;
}

function decodeProblem(parsed: ParsedDocument): string | undefined {
  const encoding = typeof parsed.metadata.encoding === 'string' ? parsed.metadata.encoding : undefined;
  if (!encoding) return undefined;
  const confidence = typeof parsed.metadata.encoding_confidence === 'number' ? parsed.metadata.encoding_confidence : 1;
  const replacements = (parsed.text.match(/\uFFFD/g) ?? []).length;
  const parts: string[] = [];
  if (confidence < LOW_ENCODING_CONFIDENCE)
    parts.push(`the encoding was guessed as ${encoding} with low confidence (${confidence.toFixed(2)})`);
  if (replacements > 0) parts.push(`${replacements} character${replacements === 1 ? '' : 's'} could not be decoded (shown as \uFFFD)`);
  if (parts.length === 0) return undefined;
  return `${parts.join('; ')}: the text may be garbled, save the file as UTF-8`;
}

/**
 * Problems found in a parsed file before it is indexed: no text at all (a scanned PDF, an empty file), text that
 * may be garbled, or text in a writing system the KB's model does not cover. Undefined: nothing to say.
 */
export function verdictForParsed(parsed: ParsedDocument, covered: 'all' | Set<string> | undefined, modelName: string): Verdict {
  const facts: Pick<Verdict, 'encoding' | 'encoding_confidence' | 'script' | 'ocr_pages' | 'ocr_confidence'> = ocrFacts(parsed);
  if (typeof parsed.metadata.encoding === 'string') facts.encoding = parsed.metadata.encoding;
  if (typeof parsed.metadata.encoding_confidence === 'number') facts.encoding_confidence = parsed.metadata.encoding_confidence;
  if (parsed.warnings.includes(WARNING_NO_TEXT_LAYER)) {
    return {
      ...facts,
      status: 'no_text_layer',
      message: ocrNothingMessage(parsed) ?? 'a scanned PDF without a text layer: nothing to index',
    };
  }
  if (!parsed.text.trim() || parsed.warnings.includes(WARNING_EMPTY_TEXT))
    return { ...facts, status: 'empty', message: ocrNothingMessage(parsed) ?? 'the file has no text' };
  const scripts = detectScripts(parsed.text);
  if (scripts.main) facts.script = scripts.main;
  const decode = decodeProblem(parsed);
  if (decode) return { ...facts, status: 'decode_problem', message: decode };
  const barelyRead = ocrLowConfidenceMessage(parsed, facts);
  if (barelyRead) return { ...facts, status: 'ocr_low_confidence', message: barelyRead };
  if (covered && covered !== 'all' && scripts.letters >= 20) {
    const uncovered = Object.entries(scripts.shares).filter(([name]) => !covered.has(name) && name !== 'other');
    const share = uncovered.reduce((s, [, v]) => s + v, 0);
    if (share >= UNCOVERED_SHARE) {
      const names = uncovered
        .sort((a, b) => b[1] - a[1])
        .map(([n]) => n)
        .join(', ');
      return {
        ...facts,
        status: 'language_not_covered',
        message: `${Math.round(share * 100)}% of the text is ${names}, which the KB's model (${modelName}) was not trained on: full-text search finds it, vector search works poorly; use the multilingual model`,
      };
    }
  }
  return { ...facts, status: 'ok', message: `indexed${ocrSuffix(facts)}` };
}
