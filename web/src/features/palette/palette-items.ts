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
  action?: 'theme' | 'logout' | 'chat';
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
