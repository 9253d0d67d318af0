/** The text a chunk is embedded as: its document's title, then the chunk's text (what vector search matches). */
export const passageText = (title: string, text: string): string => (title ? `${title}\n${text}` : text);
