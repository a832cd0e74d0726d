import stringWidth from 'string-width';

/** Breaks one word longer than the width by characters. */
function brokenWord(word: string, width: number): string[] {
  const pieces: string[] = [''];
  for (const character of word) {
    const last = pieces.length - 1;
    if (stringWidth(pieces[last]! + character) > width) pieces.push(character);
    else pieces[last] += character;
  }
  return pieces;
}

/** Word-wraps one paragraph to `width` cells (CJK characters are two). */
function wrapParagraph(paragraph: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const word of paragraph.split(/(?<= )/)) {
    if (stringWidth(piece + word.trimEnd()) <= width) {
      piece += word;
      continue;
    }
    if (piece.trim()) pieces.push(piece.trimEnd());
    const broken = brokenWord(word, width);
    pieces.push(...broken.slice(0, -1));
    piece = broken.at(-1) ?? '';
  }
  pieces.push(piece.trimEnd());
  return pieces;
}

/** Cuts `text` into lines of at most `width` cells, at spaces where it can, keeping its line breaks. */
export function wrapToWidth(text: string, width: number): string[] {
  return text
    .replace(/\t/g, '  ')
    .split('\n')
    .flatMap((paragraph) => wrapParagraph(paragraph, width));
}
