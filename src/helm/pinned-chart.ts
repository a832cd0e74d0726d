import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as yaml from 'js-yaml';
import type { RenderedRelease } from './rendering.js';

/** Chart annotations Pilothouse sets on every chart it installs (any the chart brings itself are replaced). */
export const originAnnotations = {
  /** The repository URL the chart came from (`repo` of the install), reused by an upgrade that names none. */
  repository: 'pilothouse.dev/chart-repository',
  /** The sha256 of the fetched chart archive that was rendered. */
  digest: 'pilothouse.dev/chart-digest',
} as const;

/** Where the pinned chart came from. */
export interface ChartOrigin {
  repo?: string;
  digest: string;
}

/** Template that prints one file of the chart verbatim: helm's own rendering of it is the identity. */
const verbatim = (file: string): string => `{{ .Files.Get ${JSON.stringify(file)} }}`;

function pinnedMetadata(metadata: Record<string, unknown>, origin: ChartOrigin): Record<string, unknown> {
  // The rendering holds the subcharts' objects already; the pinned chart has none to resolve.
  const rest = { ...metadata };
  delete rest.dependencies;
  const annotations = { ...((metadata.annotations as Record<string, string> | undefined) ?? {}) };
  delete annotations[originAnnotations.repository];
  if (origin.repo) annotations[originAnnotations.repository] = origin.repo;
  annotations[originAnnotations.digest] = origin.digest;
  return { ...rest, annotations };
}

/**
 * Writes the pinned chart of a rendering into `directory`: the original chart's metadata and
 * default values, the rendered objects, hooks and notes as files that its templates print
 * verbatim, and the CRDs in `crds/`. Installing it installs exactly the authorized text: helm
 * renders it again, but that rendering has nothing left to compute (no lookup, no Capabilities,
 * no random value).
 */
export async function writePinnedChart(directory: string, rendered: RenderedRelease, origin: ChartOrigin): Promise<string> {
  const files: Record<string, string> = {
    'Chart.yaml': yaml.dump(pinnedMetadata(rendered.metadata, origin)),
    'values.yaml': yaml.dump(rendered.values),
    'rendered/manifest.yaml': rendered.manifest,
    'rendered/hooks.yaml': rendered.hooks,
    'rendered/NOTES.txt': rendered.notes,
    'templates/manifest.yaml': verbatim('rendered/manifest.yaml'),
    'templates/hooks.yaml': verbatim('rendered/hooks.yaml'),
    'templates/NOTES.txt': verbatim('rendered/NOTES.txt'),
  };
  if (rendered.crds.trim() !== '') files['crds/crds.yaml'] = rendered.crds;
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(directory, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return directory;
}
