import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as yaml from 'js-yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { writePinnedChart } from './pinned-chart.js';
import type { RenderedRelease } from './rendering.js';

const rendered = (crds = ''): RenderedRelease => ({
  manifest: '---\n# Source: app/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {text: "{{ .Values.x }}"}\n',
  hooks: 'apiVersion: v1\nkind: Pod\nmetadata: {name: t, annotations: {helm.sh/hook: test}}\n',
  crds,
  notes: 'Thanks {{ for nothing }}',
  metadata: {
    name: 'app',
    version: '1.2.3',
    apiVersion: 'v2',
    dependencies: [{ name: 'sub', version: '1.0.0' }],
    annotations: { 'pilothouse.dev/chart-repository': 'https://chart.example/elsewhere', kept: 'yes' },
  },
  values: { greeting: 'hello' },
});

const directories: string[] = [];
afterEach(() => directories.splice(0).forEach((directory) => rmSync(directory, { recursive: true, force: true })));

async function pinned(release: RenderedRelease, repo?: string): Promise<string> {
  const directory = mkdtempSync(path.join(tmpdir(), 'ph-pinned-'));
  directories.push(directory);
  return writePinnedChart(directory, release, { repo, digest: 'sha256:abc' });
}

describe('the pinned chart of a rendering', () => {
  it('prints the rendered text verbatim: its templates only read files', async () => {
    const directory = await pinned(rendered());
    expect(readFileSync(path.join(directory, 'rendered/manifest.yaml'), 'utf8')).toBe(rendered().manifest);
    expect(readFileSync(path.join(directory, 'rendered/hooks.yaml'), 'utf8')).toBe(rendered().hooks);
    expect(readFileSync(path.join(directory, 'templates/manifest.yaml'), 'utf8')).toBe('{{ .Files.Get "rendered/manifest.yaml" }}');
    expect(readFileSync(path.join(directory, 'templates/NOTES.txt'), 'utf8')).toBe('{{ .Files.Get "rendered/NOTES.txt" }}');
    expect(yaml.load(readFileSync(path.join(directory, 'values.yaml'), 'utf8'))).toEqual({ greeting: 'hello' });
  });

  it("keeps the chart's metadata without dependencies, and records its own origin over the chart's", async () => {
    const metadata = (directory: string) => yaml.load(readFileSync(path.join(directory, 'Chart.yaml'), 'utf8')) as Record<string, unknown>;
    expect(metadata(await pinned(rendered(), 'https://charts.example'))).toEqual({
      name: 'app',
      version: '1.2.3',
      apiVersion: 'v2',
      annotations: { kept: 'yes', 'pilothouse.dev/chart-repository': 'https://charts.example', 'pilothouse.dev/chart-digest': 'sha256:abc' },
    });
    expect(metadata(await pinned(rendered())).annotations).toEqual({ kept: 'yes', 'pilothouse.dev/chart-digest': 'sha256:abc' });
  });

  it('carries CRDs in crds/ only when the chart has some', async () => {
    expect(readdirSync(await pinned(rendered()))).not.toContain('crds');
    const crd = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c}\n';
    expect(readFileSync(path.join(await pinned(rendered(crd)), 'crds/crds.yaml'), 'utf8')).toBe(crd);
  });
});
