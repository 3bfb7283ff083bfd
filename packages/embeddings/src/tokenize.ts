// Words and numbers, with an inner apostrophe kept ("don't", "o'neill"), as GloVe's vocabulary has them.
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-cased word tokens of a text; punctuation and whitespace are dropped. */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? []).map((t) => t.replace(/’/g, "'"));
}
