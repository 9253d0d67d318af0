/** The code units JavaScript's \s matches (none past the BMP; U+3000 among them): where words end. */
const SPACE_CODES = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];

/** SPACE[c] === 1 for the UTF-16 code units \s matches: one array read per character in the word scans. */
export const SPACE = new Uint8Array(0x10000);
for (const c of SPACE_CODES) SPACE[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) SPACE[c] = 1;
