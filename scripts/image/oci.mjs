// An OCI image archive (oci-layout, index.json, blobs) that is also a `docker load` archive
// (manifest.json beside it): one gzip layer, written reproducibly from the entries given.
import { gzipSync } from 'node:zlib';
import { sha256, tarBytes } from './tar.mjs';

const json = (value) => Buffer.from(JSON.stringify(value));

/**
 * Builds the archive bytes. `entries` are the root filesystem (sorted by the caller), `mtime` the
 * fixed time (seconds) of every file and of `created`, `config` the image's runtime config.
 */
export function imageArchive({ entries, mtime, name, tag, config, labels }) {
  const layerTar = tarBytes(entries, mtime);
  const layer = gzipSync(layerTar, { level: 9 });
  const created = new Date(mtime * 1000).toISOString();
  const imageConfig = json({
    created,
    architecture: 'amd64',
    os: 'linux',
    config: { ...config, Labels: labels },
    rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layerTar)}`] },
    history: [{ created, created_by: 'scripts/image/build-image.mjs' }],
  });
  const manifest = json({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${sha256(imageConfig)}`, size: imageConfig.length },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: `sha256:${sha256(layer)}`, size: layer.length }],
    annotations: { 'org.opencontainers.image.created': created },
  });
  const reference = `${name}:${tag}`;
  const index = json({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: [
      {
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        digest: `sha256:${sha256(manifest)}`,
        size: manifest.length,
        annotations: { 'io.containerd.image.name': `docker.io/library/${reference}`, 'org.opencontainers.image.ref.name': tag },
      },
    ],
  });
  const blob = (bytes) => `blobs/sha256/${sha256(bytes)}`;
  const dockerManifest = json([{ Config: blob(imageConfig), RepoTags: [reference], Layers: [blob(layer)] }]);
  const file = (path, data) => ({ path, type: 'file', data, mode: 0o644, uid: 0, gid: 0 });
  const dir = (path) => ({ path, type: 'dir', mode: 0o755, uid: 0, gid: 0 });
  const archive = tarBytes(
    [
      dir('blobs'),
      dir('blobs/sha256'),
      ...[imageConfig, layer, manifest]
        .map((bytes) => ({ path: blob(bytes), bytes }))
        .sort((a, b) => a.path.localeCompare(b.path))
        .map(({ path, bytes }) => file(path, bytes)),
      file('index.json', index),
      file('manifest.json', dockerManifest),
      file('oci-layout', json({ imageLayoutVersion: '1.0.0' })),
    ],
    mtime,
  );
  return { archive, manifestDigest: `sha256:${sha256(manifest)}`, layerSize: layer.length };
}
