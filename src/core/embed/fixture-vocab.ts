/**
 * Vocabulary and tokenizer files of the fixture models (see fixture-model.ts): a real BERT-style WordPiece
 * tokenizer (the same `tokenizer.json` format as Xenova/all-MiniLM-L6-v2) over a small vocabulary: special
 * tokens, single letters and `##` letter pieces for Latin and Cyrillic (so every word tokenizes into something),
 * common English and Russian words, a few suffix pieces, digits, punctuation and common Chinese characters.
 */

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const PUNCTUATION = Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~，。、；：？！（）《》“”');
const DIGITS = Array.from('0123456789');
const LATIN = Array.from('abcdefghijklmnopqrstuvwxyz');
const CYRILLIC = Array.from('абвгдежзийклмнопрстуфхцчшщъыьэюя');

const ENGLISH_WORDS = `the of and to in is was for on that with as by it are be this from or at an which not have has
had but were can all their they one more about when there will also been would who if its what so out up into
some other than then them these only new time may first any used how each most over such after where between
both many those very two three because through should under same while before during could well against
without another another being here just like made make use using data model models search query queries
document documents text file files page pages word words language languages english russian chinese index
vector vectors embedding embeddings local knowledge base bases server client agent result results rank
ranking score scores chunk chunks token tokens sentence sentences paragraph heading title source
heart disease diseases cardiovascular illness health medical patient patients doctor hospital blood
cancer treatment drug drugs study studies clinical risk cell cells gene genes protein
tax taxes law laws legal court contract customs import export trade duty duties goods border
bank money price prices market business company finance report year years day days
cat cats dog dogs animal animals bird fish tree trees forest river water sea mountain city
car cars train road travel house home school student students teacher book books
computer software program code network internet database memory speed fast slow
good bad big small large long short high low old young right left open close
red green blue black white color weather rain snow sun moon summer winter
food apple bread milk coffee tea eat drink cook kitchen
music song art game play sport football team win`;

const RUSSIAN_WORDS = `и в не на что с по это как а к из у за от о для же так все но он она они мы вы
таможня таможенный таможенные таможенной таможни пошлина пошлины закон законы налог налоги
граница товар товары импорт экспорт торговля документ документы поиск база знаний модель
сердце болезнь болезни здоровье врач больница лечение кровь
кошка собака дом город река вода лес дерево книга школа
деньги банк цена рынок компания год день время человек люди
язык русский английский китайский текст слово слова страница`;

const CHINESE_CHARS = Array.from(
  '的一是不了在人有我他这个们中来上大为和国地到以说时要就出会可也你对生能而子那得于着下自之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区保至队形社便空决治展马科司五基眼书非则听白却界达光放强即像难且权思王象完设式色路记南品住告类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根干造言联持组每济车亲极林服快办议往元英士证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流备兵连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消越器容照须九增研写称企八功吗包片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念六引历首医局突专费号尽另周较注语仅考落青随选列武红响虽推势参希古众构房半节土投某案黑维革划敌致陈律足态护七兴派孩验责营星够章音跟志底站严巴例防族供效续施留讲型料终答紧黄绝奇察母京段依批群项故按河米围江织害斗双境客纪采举杀攻父苏密低朝友诉止细愿千值仍男钱破网热助倒育属坐帝限船脸职速刻乐否刚威毛状率甚独球般普怕弹校苦创假久错承印晚兰试股拿脑预谁益阳若哪微尼继送急血惊伤素药适波夜省初喜卫源食险待述陆习置居劳财环排福纳欢雷警获模充负云停木游龙树疑层冷洲冲射略范竟句室异激汉村哈策演简卡罪判担州静退既衣您宗积余痛检差富灵协角占配征修皮挥胜降阶审沉坚善妈刘读啊超免压银买皇养伊怀执副乱抗犯追帮宣佛岁航优怪香著田铁控税左右份穿艺背阵草脚概恶块顿敢守酒岛托央户烈洋哥索胡款靠评版宝座释景顾弟登货互付伯慢欧换闻危忙核暗姐介坏讨丽良序升监临亮露永呼味野架域沙掉括舰鱼杂误湾吉减编楚肯测败屋跑梦散温困剑渐封救贵枪缺楼县尚毫移娘朋画班智亦耳恩短掌恐遗固席松秘谢鲁遇康虑幸均销钟诗藏赶剧票损忽巨炮旧端探湖录叶春乡附吸予礼港雨呀板庭妇归睛饭额含顺输摇招婚脱补谓督毒油疗旅泽材灭逐莫笔亡鲜词圣择寻厂睡博勒烟授诺伦岸奥唐卖俄炸载洛健堂旁宫喝借君禁阴园谋宋避抓荣姑孙逃牙束跳顶玉镇雪午练迫爷篇肉嘴馆遍凡础洞卷坦牛宁纸诸训私庄祖丝翻暴森塔默握戏隐熟骨访弱蒙歌店鬼软典欲萨伙遭盘爸扩盖弄雄稳忘亿刺拥徒姆杨齐赛趣曲刀床迎冰虚玩析窗醒妻透购替塞努休虎扬途侵刑绿兄迅套贸毕唯谷轮库迹尤竞街促延震弃甲伟麻川申缓潜闪售灯针哲络抵朱埃抱鼓植纯夏忍页杰筑折郑贝尊吴秀混臣雅振染盛怒舞圆搞狂措姓残秋培迷诚宽宇猛摆梅毁伸摩盟末乃悲拍丁赵',
);

const SUFFIXES = [
  '##s',
  '##es',
  '##ed',
  '##ing',
  '##er',
  '##ly',
  '##tion',
  '##al',
  '##ой',
  '##ые',
  '##ая',
  '##ий',
  '##ов',
  '##ами',
  '##ы',
  '##и',
];

/** Same normalisation as the tokenizer's BertNormalizer (lowercase + strip accents), so vocab entries match. */
function normalizeEntry(word: string): string {
  return word
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '');
}

/** The fixture vocabulary, in id order. Deterministic. */
export function fixtureVocabulary(): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (token: string) => {
    if (!token || seen.has(token)) return;
    seen.add(token);
    out.push(token);
  };
  SPECIAL_TOKENS.forEach(add);
  PUNCTUATION.forEach(add);
  DIGITS.forEach(add);
  for (const letters of [LATIN, CYRILLIC]) {
    for (const l of letters) add(normalizeEntry(l));
    for (const l of letters) add(`##${normalizeEntry(l)}`);
  }
  for (const d of DIGITS) add(`##${d}`);
  SUFFIXES.forEach((s) => add(`##${normalizeEntry(s.slice(2))}`));
  for (const w of `${ENGLISH_WORDS} ${RUSSIAN_WORDS}`.split(/\s+/)) add(normalizeEntry(w));
  CHINESE_CHARS.forEach(add);
  return out;
}

/** A special added token as `tokenizer.json` lists it (Hugging Face tokenizers format). */
export function specialAddedToken(content: string, id: number): Record<string, unknown> {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

/** `tokenizer.json` (Hugging Face tokenizers format) for a vocabulary from `fixtureVocabulary()`. */
export function fixtureTokenizerJson(vocab: string[]): Record<string, unknown> {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const id = (t: string): number => ids[t] as number;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => specialAddedToken(content, id(content))),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
}

/** `tokenizer_config.json` for the fixture tokenizer (BertTokenizer: returns token_type_ids for pairs). */
export function fixtureTokenizerConfig(maxLength: number): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    do_basic_tokenize: true,
    tokenize_chinese_chars: true,
    strip_accents: null,
    model_max_length: maxLength,
    clean_up_tokenization_spaces: true,
    unk_token: '[UNK]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
}
