import { objectRoutePath } from '../../shared/router';
import type { Role } from '@pilothouse/wire/types';

/** One resource kind from `GET /api/k8s`. */
export interface KindEntry {
  kind: string;
  plural: string;
  singular: string;
  group: string;
  namespaced: boolean;
  shortNames: string[];
  /** The verbs the kind supports; kinds that can't be listed (e.g. tokenreviews) stay out of the palette. */
  verbs?: string[];
}

/** One entry of the palette: what it shows, what it matches, where it goes. */
export interface PaletteItem {
  id: string;
  group: 'pages' | 'kinds' | 'objects' | 'actions';
  label: string;
  hint?: string;
  keywords: string[];
  /** A path to navigate to, or an action id the palette runs. */
  to?: string;
  action?: 'theme' | 'logout' | 'chat' | 'ask';
  /** The object an object entry (or an object's action) is about. */
  target?: { resource: string; namespace?: string; name: string };
  /** `ask`: the question put to the pilot. */
  question?: string;
}

/** A page of the app: path, label key, who sees it. */
export interface PageEntry {
  path: string;
  label: string;
  adminOnly?: boolean;
  hideForViewer?: boolean;
}

/** The kind list's route: the plural, or `plural.group` (like kubectl) when a core kind has the same plural. */
export function kindPath(kind: KindEntry, qualified: boolean): string {
  return `/resources/${encodeURIComponent(qualified && kind.group ? `${kind.plural}.${kind.group}` : kind.plural)}`;
}

/** The object page of one object: `/resources/{kind}/{namespace}/{name}` (cluster-scoped: `/resources/{kind}/_/{name}`). */
export function objectPath(plural: string, name: string, namespace?: string): string {
  return objectRoutePath({ resource: plural, name, namespace });
}

/** k9s-style aliases of a kind: `:pods`, `:pod`, `:po`, `:Pod`. */
export function kindAliases(kind: KindEntry): string[] {
  const names = [kind.plural, kind.singular, kind.kind.toLowerCase(), ...kind.shortNames].filter(Boolean);
  return [...new Set(names.flatMap((name) => [name, `:${name}`]))];
}

/** The kinds as palette items; the core and apps kinds first, then the rest by name. */
export function kindItems(kinds: readonly KindEntry[]): PaletteItem[] {
  const rank = (kind: KindEntry): number => (kind.group === '' ? 0 : kind.group === 'apps' ? 1 : 2);
  const listable = kinds.filter((kind) => !kind.verbs?.length || kind.verbs.includes('list'));
  const sorted = listable.sort((left, right) => rank(left) - rank(right) || left.plural.localeCompare(right.plural));
  const first = new Map<string, KindEntry>();
  for (const kind of sorted) if (!first.has(kind.plural)) first.set(kind.plural, kind);
  return sorted.map((kind) => ({
    id: `kind:${kind.group}/${kind.plural}`,
    group: 'kinds',
    label: kind.kind,
    hint: kind.group ? `${kind.plural}.${kind.group}` : kind.plural,
    keywords: kindAliases(kind),
    to: kindPath(kind, first.get(kind.plural) !== kind),
  }));
}

/** The pages a role may open. */
export function pageItems(pages: readonly PageEntry[], role: Role): PaletteItem[] {
  return pages
    .filter((page) => (!page.adminOnly || role === 'admin') && (!page.hideForViewer || role !== 'viewer'))
    .map((page) => ({ id: `page:${page.path}`, group: 'pages', label: page.label, keywords: [page.path], to: page.path }));
}

/**
 * What `:alias` alone jumps to: the kind whose alias it is exactly (k9s' command mode), so
 * `:po` + Enter opens pods even when the fuzzy ranking would put another item first.
 */
export function exactKind(input: string, kinds: readonly KindEntry[]): KindEntry | undefined {
  const text = input.trim().toLowerCase();
  if (!text.startsWith(':') || text.length < 2) return undefined;
  const alias = text.slice(1);
  const core = kinds.filter((kind) => kindAliases(kind).some((name) => name.toLowerCase() === alias));
  return core.find((kind) => kind.group === '') ?? core[0];
}

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[\s\-_./:]+/)
    .filter(Boolean);

/** Whether the letters of `search` appear in `text` in order (a loose match, scored lowest). */
function subsequence(text: string, search: string): boolean {
  let index = 0;
  for (const character of text) if (character === search[index]) index += 1;
  return index === search.length;
}

/** How well the item's label matches: exact, prefix, a word's prefix, inside, loosely (0: not at all). */
function labelScore(label: string, search: string): number {
  if (label === search) return 1000;
  // The closer the label is to the search, the higher (`payments-worker` before `payments-worker-7d9f-x2`).
  const closeness = Math.round((40 * search.length) / label.length);
  if (label.startsWith(search)) return 800 + closeness;
  if (words(label).some((word) => word.startsWith(search))) return 600 + closeness;
  if (label.includes(search)) return 500 + closeness;
  return subsequence(label, search) ? 100 : 0;
}

/** How well a keyword matches: an alias or keyword typed in full (`pods`, `:po`, `dark`), its start, inside. */
function keywordScore(keywords: readonly string[], search: string): number {
  const lower = keywords.map((keyword) => keyword.toLowerCase());
  if (lower.includes(search)) return 900;
  if (lower.some((keyword) => keyword.startsWith(search))) return 450;
  return lower.some((keyword) => keyword.includes(search)) ? 300 : 0;
}

/**
 * The palette's ranking: an object whose name is the search ranks above everything, then a kind, page or action
 * named in full (`pods`, `dark`), then names that start with it (`payments` → `payments-worker` before any kind whose
 * name only resembles it); objects win ties. 0: the item does not match.
 */
export function itemScore(item: PaletteItem, search: string): number {
  const text = search.trim().toLowerCase();
  if (!text) return 1;
  const label = labelScore(item.label.toLowerCase(), text);
  const keyword = keywordScore(item.keywords, text);
  if (item.group !== 'objects') return Math.max(label, keyword);
  // An object's keyword is its kind: `deployments` lists the kind first, its objects after.
  if (label === 0) return keyword > 0 ? 200 : 0;
  return label === 1000 ? 1100 : label + 50;
}

/** The items that match, best first (stable for equal scores); all of them, in order, without a search. */
export function rankItems(items: readonly PaletteItem[], search: string): PaletteItem[] {
  if (!search.trim()) return [...items];
  return items
    .map((item, index) => ({ item, index, score: itemScore(item, search) }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .map((entry) => entry.item);
}

/** The labels of an object's actions (translated by the caller). */
export interface ObjectActionLabels {
  logs: (name: string) => string;
  events: (name: string) => string;
  ask: (name: string) => string;
  question: (object: string) => string;
}

/** What one can do with an object from the palette: its logs (pods), its events, ask the pilot about it. */
export function objectActions(item: PaletteItem, labels: ObjectActionLabels): PaletteItem[] {
  const target = item.target;
  if (!target) return [];
  const entry = (suffix: string, label: string, extra: Partial<PaletteItem>): PaletteItem => ({
    id: `${item.id}#${suffix}`,
    group: 'objects',
    label,
    hint: item.hint,
    keywords: [target.name, suffix],
    target,
    ...extra,
  });
  const object = `${target.resource.replace(/s$/, '')}/${target.name}${target.namespace ? ` (namespace ${target.namespace})` : ''}`;
  return [
    ...(target.resource === 'pods' ? [entry('logs', labels.logs(target.name), { to: objectRoutePath(target, 'logs') })] : []),
    entry('events', labels.events(target.name), { to: objectRoutePath(target, 'events') }),
    entry('ask', labels.ask(target.name), { to: objectRoutePath(target), action: 'ask', question: labels.question(object) }),
  ];
}

/** The ranked items with the actions of the first few objects right after each of them. */
export function withObjectActions(ranked: readonly PaletteItem[], labels: ObjectActionLabels, objects = 3): PaletteItem[] {
  let left = objects;
  return ranked.flatMap((item) => {
    if (item.group !== 'objects' || !item.target || left <= 0) return [item];
    left -= 1;
    return [item, ...objectActions(item, labels)];
  });
}

/** The groups in the order of their best item (the ranked order), each with its items. */
export function groupsInOrder(ranked: readonly PaletteItem[]): [PaletteItem['group'], PaletteItem[]][] {
  const groups = new Map<PaletteItem['group'], PaletteItem[]>();
  for (const item of ranked) groups.set(item.group, [...(groups.get(item.group) ?? []), item]);
  return [...groups.entries()];
}
