import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adrIndex, adrIndexPath } from '../../scripts/adr-index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const docs = join(root, 'docs');
const index = join(docs, 'index.md');

/** Every Markdown file below `folder`. */
function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The page's text outside fenced code blocks and inline code (links there are examples, not links). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, spaces as hyphens (github-slugger). */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page: one per heading, a repeated one numbered `-1`, `-2`… as GitHub does. */
function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = readFileSync(path, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = githubSlug(match[1]!);
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** The relative link targets of a page (`[text](target)`, images too), web addresses left out. */
function linksOf(path: string): string[] {
  const targets = [...prose(readFileSync(path, 'utf8')).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why a link of `from` does not resolve, or undefined when it does. */
function brokenReason(from: string, target: string): string | undefined {
  const [file = '', anchor] = target.split('#', 2);
  const path = file === '' ? from : resolve(dirname(from), decodeURIComponent(file));
  if (!existsSync(path)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (!path.endsWith('.md')) return 'an anchor on a file that is not Markdown';
  return anchorsOf(path).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `no heading with the anchor #${anchor}`;
}

/** The pages reached from `start` by following relative links to Markdown files. */
function reachableFrom(start: string): Set<string> {
  const reached = new Set([start]);
  const queue = [start];
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    for (const target of linksOf(page)) {
      const file = target.split('#', 1)[0]!;
      const path = file === '' ? page : resolve(dirname(page), decodeURIComponent(file));
      if (!path.endsWith('.md') || reached.has(path) || !existsSync(path)) continue;
      reached.add(path);
      queue.push(path);
    }
  }
  return reached;
}

const pages = [join(root, 'README.md'), ...markdownFiles(docs)];

describe('the docs: README.md and docs/', () => {
  it('every relative link and #anchor resolves (GitHub heading anchors)', () => {
    const broken = pages.flatMap((page) =>
      linksOf(page).flatMap((target) => {
        const reason = brokenReason(page, target);
        return reason ? [`${relative(root, page)}: (${target}) ${reason}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('every page of docs/ is reachable from docs/index.md, and the README links docs/index.md', () => {
    const reached = reachableFrom(index);
    expect(
      markdownFiles(docs)
        .filter((page) => !reached.has(page))
        .map((page) => relative(root, page)),
    ).toEqual([]);
    expect(linksOf(join(root, 'README.md'))).toContain('docs/index.md');
  });

  it('docs/development/adr.md lists every ADR of docs/adr/ (regenerate: make adr-index)', () => {
    expect(readFileSync(adrIndexPath, 'utf8') === adrIndex(), 'docs/development/adr.md is stale: run make adr-index and commit it').toBe(true);
  });

  it('the README stays short (at most 200 lines) and keeps the test command CI runs', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toContain('make test');
  });

  it('reads anchors as GitHub makes them', () => {
    expect(githubSlug('Cluster Secrets (adding a cluster without a restart)')).toBe('cluster-secrets-adding-a-cluster-without-a-restart');
    expect(githubSlug('Lists at scale (`bench/scale.bench.ts`)')).toBe('lists-at-scale-benchscalebenchts');
    expect(githubSlug('`oidc.role_mappings` and [SSO](x.md)')).toBe('oidcrole_mappings-and-sso');
  });
});
