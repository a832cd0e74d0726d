import { describe, expect, it } from 'vitest';
import { problemsSchema } from '../config/problems-schema.js';
import type { ResourceType } from '../kube/discovery.js';
import type { RestClient } from '../kube/rest-client.js';
import { createLogger } from '../log.js';
import { argoApplicationAnalyzer } from './analyzers/argocd-application.js';
import type { Deadlines } from './deadlines.js';
import { ProblemsEngine } from './engine.js';
import type { KindChange } from './kind-watch.js';
import { watchedKind } from './watched-kinds.js';

/** What discovery lists: the watched kinds of these names. */
const served = (kinds: string[]): ResourceType[] => kinds.map((name) => ({ ...watchedKind(name)! }));

describe('optional kinds (Argo CD, Flux) follow discovery', () => {
  it('watches Applications only once discovery serves them, asking again on a deadline', async () => {
    let now = Date.parse('2026-06-01T12:00:00Z');
    const scheduled: Array<{ at: number; run: () => void }> = [];
    const deadlines: Deadlines = { schedule: (at, run) => (scheduled.push({ at, run }), () => undefined) };
    let discovery = served(['Pod']);
    const watched: string[] = [];
    const application = { kind: 'Application', metadata: { name: 'shop', namespace: 'argocd' }, status: { sync: { status: 'OutOfSync' } } };
    const engine = new ProblemsEngine({
      cluster: 'home',
      rest: (): RestClient => {
        throw new Error('not used');
      },
      source: (kind, onChange: (change: KindChange) => void) => {
        watched.push(kind.kind);
        onChange({ type: 'relisted', objects: kind.kind === 'Application' ? [application] : [] });
        return { synced: Promise.resolve(), stop: () => undefined };
      },
      served: () => Promise.resolve(discovery),
      kinds: [watchedKind('Pod')!, watchedKind('Application')!],
      config: problemsSchema.parse({}),
      analyzers: [argoApplicationAnalyzer],
      clock: () => now,
      deadlines,
      logger: createLogger('silent'),
    });
    await engine.start();
    expect(watched).toEqual(['Pod']);
    expect(engine.findings()).toEqual([]);
    discovery = served(['Pod', 'Application']);
    now = scheduled[0]!.at;
    scheduled[0]!.run();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(watched).toEqual(['Pod', 'Application']);
    expect(engine.findings().map((finding) => finding.reason)).toEqual(['OutOfSync']);
    engine.close();
  });
});
