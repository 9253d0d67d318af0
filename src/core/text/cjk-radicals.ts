/**
 * CJK radicals → the unified ideographs they stand for. A CJK font often gives a radical and its ideograph one glyph,
 * and a PDF's ToUnicode map then names the radical: Chromium printing with Noto Sans CJK makes pdf.js read 鹿特丹 as
 * ⿅特丹 and 门到门 as ⻔到⻔. Text with radicals is found by neither search nor the embedding model.
 * - Kangxi Radicals (U+2F00–U+2FD5): each has a compatibility decomposition to its ideograph (NFKC maps them all).
 * - CJK Radicals Supplement (U+2E80–U+2EFF): NFKC maps only ⺟ and ⻳; SUPPLEMENT names the rest that have one
 *   obvious unified ideograph (the ones pdf.js returned for Noto Sans CJK SC text, measured with every candidate
 *   ideograph printed by Chromium, plus the radicals whose name is a plain character). The variant forms without a
 *   single equivalent (⺀ repeat, ⺂–⺄ second one…, ⻊ foot) stay as they are.
 */

/** Radical, ideograph, radical, ideograph… Measured: printed by Chromium in Noto Sans CJK SC, read back by pdf.js. */
const MEASURED =
  '⺅亻⺉刂⺋㔾⺏尣⺐尢⺒巳⺓幺⺔彑⺕彐⺖忄⺘扌⺙攵⺛旡⺞歺⺟母⺠民⺡氵⺣灬⺤爫⺦丬⺨犭⺭礻⺰纟⺱罓⺳㓁⺹耂⺺肀⺾艹⻂衤⻅见' +
  '⻆角⻈讠⻉贝⻋车⻌辶⻐钅⻑長⻒镸⻓长⻔门⻖阝⻘青⻙韦⻚页⻛风⻜飞⻝食⻟飠⻠饣⻢马⻣骨⻤鬼⻥鱼⻦鸟⻧卤⻨麦⻩黄⻪黾⻫斉⻬齐' +
  '⻮齿⻯竜⻰龙⻱龜⻲亀⻳龟';
/** Radicals named after a plain character (⺁ CLIFF 厂, ⻄ WEST TWO 西…). */
const NAMED = '⺁厂⺊卜⺌小⺜日⺝月⺩王⺬示⺮竹⺯糸⺽臼⺿艹⻀艹⻁虎⻄西⻍辶⻎辶⻏阝⻗雨';

const SUPPLEMENT = new Map<string, string>();
for (const pairs of [MEASURED, NAMED]) for (let i = 0; i < pairs.length; i += 2) SUPPLEMENT.set(pairs[i]!, pairs[i + 1]!);

const RADICAL = /[\u2e80-\u2eff\u2f00-\u2fd5]/g;

/** One radical's ideograph, or the radical itself when it has none. */
function ideograph(radical: string): string {
  if (radical >= '\u2f00') return radical.normalize('NFKC');
  return SUPPLEMENT.get(radical) ?? radical;
}

/** `text` with CJK radicals replaced by their unified ideographs (one UTF-16 unit each way, so offsets hold). */
export function foldCjkRadicals(text: string): string {
  return text.replace(RADICAL, ideograph);
}
