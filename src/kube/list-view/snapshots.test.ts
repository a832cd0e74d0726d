import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/cluster.js';
import { AppError } from '../../errors.js';
import { replyWithList } from '../../http/list-reply.js';
import type { AppContext } from '../../http/types.js';
import { ListSnapshots, type ListSource } from './snapshots.js';
import type { PageQuery } from './order.js';

/** What the list route does with an answer of the kept snapshots (src/http/routes/resources.ts). */
async function send(snapshots: ListSnapshots, context: Koa.Context, source: ListSource, query: PageQuery): Promise<void> {
  replyWithList(context as unknown as AppContext, await snapshots.answer(source, query));
}

// ListSnapshots behind a real Koa server with the list route's reply: what a client sees of ETags, 304, compression and pages.
describe('ListSnapshots', () => {
  const items = Array.from({ length: 500 }, (_, index) => ({
    name: `pod-${String(index).padStart(3, '0')}`,
    namespace: 'ns',
    restarts: index % 7,
    age: `${index}s`,
  }));
  let builds = 0;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const pages = new ListSnapshots();
    const app = new Koa();
    app.use(async (context, next) => {
      try {
        await next();
      } catch (error) {
        context.status = error instanceof AppError ? 400 : 500;
        context.body = { error: (error as Error).message };
      }
    });
    app.use(async (context) => {
      const query = context.query as Record<string, string>;
      const page = { limit: query.limit ? Number(query.limit) : undefined, continue: query.continue, sortBy: query.sortBy };
      await send(pages, context, { scope: 'snapshot', version: '1', build: async () => (builds++, items) }, page);
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('builds a snapshot once and answers If-None-Match with 304', async () => {
    const first = await fetch(url);
    const etag = first.headers.get('etag')!;
    expect(((await first.json()) as { total: number }).total).toBe(500);
    const second = await fetch(url, { headers: { 'If-None-Match': etag } });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
    expect(builds).toBe(1);
  });

  it('compresses with br or gzip when accepted, to the same JSON', async () => {
    const plain = await (await fetch(url, { headers: { 'Accept-Encoding': 'identity' } })).text();
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(url, { headers: { 'Accept-Encoding': encoding } });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(await response.text()).toBe(plain);
    }
  });

  it('writes exactly the JSON of the page, continue token included', async () => {
    const text = await (await fetch(`${url}/?sortBy=-restarts&limit=2`, { headers: { 'Accept-Encoding': 'identity' } })).text();
    const page = JSON.parse(text) as { items: unknown[]; total: number; continue: string };
    expect(page.items).toHaveLength(2);
    expect(page.continue).toMatch(/^[\w-]+$/);
    expect(text).toBe(JSON.stringify({ items: page.items, total: 500, continue: page.continue }));
  });

  it('pages every item exactly once in the requested order', async () => {
    const seen: string[] = [];
    let token = '';
    do {
      const page = (await (await fetch(`${url}/?sortBy=-restarts&limit=37${token ? `&continue=${token}` : ''}`)).json()) as {
        items: { name: string; restarts: number }[];
        continue?: string;
      };
      seen.push(...page.items.map((item) => item.name));
      token = page.continue ?? '';
    } while (token);
    expect(new Set(seen).size).toBe(500);
    expect(seen.length).toBe(500);
    const restarts = seen.map((name) => items.find((item) => item.name === name)!.restarts);
    expect(restarts).toEqual([...restarts].sort((left, right) => right - left));
    const byAge = (await (await fetch(`${url}/?sortBy=age&limit=3`)).json()) as { items: { age: string }[] };
    expect(byAge.items.map((item) => item.age)).toEqual(['0s', '1s', '2s']);
    expect((await fetch(`${url}/?continue=garbage`)).status).toBe(400);
  });

  it('keeps one snapshot per scope (its latest version) and stays within its byte budget', async () => {
    const budget = new ListSnapshots(200_000);
    const built: string[] = [];
    const app = new Koa();
    app.use(async (context) => {
      const { scope = 'a', version = '1' } = context.query as Record<string, string>;
      await send(budget, context, { scope, version, build: async () => (built.push(`${scope}@${version}`), items) }, {});
    });
    const local = createServer(app.callback());
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
    try {
      for (const query of ['scope=a&version=1', 'scope=a&version=1', 'scope=a&version=2', 'scope=b&version=1', 'scope=c&version=1', 'scope=a&version=2'])
        expect((await fetch(`${base}/?${query}`, { headers: { 'Accept-Encoding': 'gzip' } })).status).toBe(200);
      // a@1 once, replaced by a@2; b and c push a out of the budget, so a@2 is built again.
      expect(built).toEqual(['a@1', 'a@2', 'b@1', 'c@1', 'a@2']);
      expect(budget.size).toBeLessThanOrEqual(200_000);
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });

  it('answers from the kept snapshot while a newer version with the same content is built', async () => {
    const stale = new ListSnapshots();
    const built: string[] = [];
    const app = new Koa();
    app.use(async (context) => {
      const { version = '1', content = 'r1' } = context.query as Record<string, string>;
      const build = async (): Promise<typeof items> => (built.push(`${content}@${version}`), items.slice(0, Number(version)));
      await send(stale, context, { scope: 's', version: `${content}@${version}`, content, build }, {});
    });
    const local = createServer(app.callback());
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const totalAt = async (query: string): Promise<number> =>
      ((await (await fetch(`http://127.0.0.1:${(local.address() as AddressInfo).port}/?${query}`)).json()) as { total: number }).total;
    try {
      expect(await totalAt('version=1')).toBe(1);
      // Only the clock moved: the kept answer comes back at once and the next version is built behind it.
      expect(await totalAt('version=2')).toBe(1);
      await waitFor(() => built.includes('r1@2'));
      expect(await totalAt('version=2')).toBe(2);
      // The content changed: the answer waits for the new build.
      expect(await totalAt('version=3&content=r2')).toBe(3);
      expect(built).toEqual(['r1@1', 'r1@2', 'r2@3']);
    } finally {
      await new Promise<void>((resolve) => local.close(() => resolve()));
    }
  });
});
