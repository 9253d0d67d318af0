/**
 * Words never marked in a hit, beyond the index's own stop words (stopwords.ts): the index keeps question and
 * pronoun words such as "how", "do", "I" (they can matter to BM25 in a phrase), but marking them only adds noise.
 * English: the usual function words (pronouns, auxiliaries, question words, determiners, prepositions).
 */
export const ENGLISH_HIGHLIGHT_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its ' +
    'itself they them their theirs themselves what which who whom whose this that these those am is are was were be been ' +
    'being have has had having do does did doing done a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under again ' +
    'further then once here there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very can could will would shall should may might must just also get got s t d ll m re ve don doesn ' +
    'didn isn aren wasn weren hasn haven hadn won wouldn shouldn couldn let us please'
  ).split(' '),
);
