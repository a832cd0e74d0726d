import type { ResourceKind } from '../api/types.js';

/** Commands of the `:` line besides resource kinds. */
export const builtinCommands = ['helm', 'ns', 'ctx', 'cluster', 'requests', 'reports', 'problems', 'forwards', 'investigations', 'lang', 'quit', 'q'] as const;

/** Every word the `:` line completes: built-ins, then each kind's plural, singular, short names and `plural.group`. */
export function commandWords(kinds: ResourceKind[]): string[] {
  const words = new Set<string>(builtinCommands);
  for (const kind of kinds) {
    words.add(kind.plural);
    words.add(kind.singular);
    for (const short of kind.shortNames) words.add(short);
    if (kind.group) words.add(kind.name);
  }
  return [...words];
}

/** The words starting with what was typed (the first word only), shortest first. */
export function completions(words: string[], typed: string): string[] {
  const prefix = typed.trim().toLowerCase();
  if (!prefix || prefix.includes(' ')) return [];
  return words.filter((word) => word.startsWith(prefix)).sort((left, right) => left.length - right.length || left.localeCompare(right));
}

/** Tab: the longest prefix every completion shares (the whole word when only one is left). */
export function complete(words: string[], typed: string): string {
  const found = completions(words, typed);
  if (found.length === 0) return typed;
  let shared = found[0] ?? typed;
  for (const word of found) while (!word.startsWith(shared)) shared = shared.slice(0, -1);
  return shared.length > typed.trim().length ? shared : typed;
}

/** The kind a `:` word names: plural, singular, short name, kind (any case) or `plural.group`, the core group first. */
export function kindNamed(kinds: ResourceKind[], word: string): ResourceKind | undefined {
  const lower = word.toLowerCase();
  const matches = kinds.filter(
    (kind) => kind.name === lower || kind.plural === lower || kind.singular === lower || kind.shortNames.includes(lower) || kind.kind.toLowerCase() === lower,
  );
  return matches.find((kind) => kind.group === '') ?? matches.find((kind) => !kind.group.includes('.')) ?? matches[0];
}
