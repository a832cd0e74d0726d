/** An image reference taken apart the way container runtimes read it. */
export interface ImageReference {
  /** Registry host (`docker.io` when the reference names none). */
  registry: string;
  /** Repository path within the registry (`library/nginx`). */
  repository: string;
  /** The tag ('' when none: the runtime then pulls `latest`). */
  tag: string;
  /** `sha256:…` when the reference pins a digest. */
  digest: string;
}

const dockerHubAliases = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/** `name:tag` → name and tag (a colon before the last slash is a registry port, not a tag). */
function splitTag(named: string): { path: string; tag: string } {
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  return colon > slash ? { path: named.slice(0, colon), tag: named.slice(colon + 1) } : { path: named, tag: '' };
}

/** `registry/repository` → both (no registry host: Docker Hub, where one-part names live under `library/`). */
function splitRegistry(path: string): { registry: string; repository: string } {
  const [first = '', ...rest] = path.split('/');
  const hasRegistry = rest.length > 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) return { registry: 'docker.io', repository: rest.length === 0 ? `library/${first}` : path };
  const registry = dockerHubAliases.has(first.toLowerCase()) ? 'docker.io' : first.toLowerCase();
  return { registry, repository: registry === 'docker.io' && rest.length === 1 ? `library/${rest.join('/')}` : rest.join('/') };
}

/** Parses `[registry/]repository[:tag][@digest]`. */
export function parseImage(image: string): ImageReference {
  const [named = '', digest = ''] = image.trim().split('@', 2);
  const { path, tag } = splitTag(named);
  return { ...splitRegistry(path), tag, digest };
}

/** A trusted entry with Docker Hub's aliases folded into `docker.io`. */
function normalizeEntry(entry: string): string {
  const [host = '', ...rest] = entry.trim().replace(/\/+$/, '').toLowerCase().split('/');
  return [dockerHubAliases.has(host) ? 'docker.io' : host, ...rest].join('/');
}

/** Whether the image comes from a trusted registry (`ghcr.io`) or repository prefix (`ghcr.io/acme`). */
export function isTrusted(reference: ImageReference, trusted: readonly string[]): boolean {
  const full = `${reference.registry}/${reference.repository}`;
  return trusted.map(normalizeEntry).some((entry) => reference.registry === entry || full === entry || full.startsWith(`${entry}/`));
}

/** A tag that names no fixed release: none at all, or `latest`. */
export function isLatest(reference: ImageReference): boolean {
  return reference.digest === '' && (reference.tag === '' || reference.tag === 'latest');
}
