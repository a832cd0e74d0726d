/** Parses RFC 4180 CSV (quoted fields, doubled quotes, line breaks inside quotes, CRLF rows). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  while (index < text.length) {
    const character = text[index] ?? '';
    const next = text[index + 1];
    index += 1;
    if (quoted) {
      if (character !== '"') field += character;
      else if (next === '"') {
        field += '"';
        index += 1;
      } else quoted = false;
      continue;
    }
    if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\r' && next === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += character;
  }
  return rows;
}
