import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { imageArchive } from '../../scripts/image/oci.mjs';

const entries = [
  { path: 'app', type: 'dir', mode: 0o755, uid: 0, gid: 0 },
  { path: 'app/main.js', type: 'file', data: Buffer.from('console.log(1)\n'), mode: 0o644, uid: 0, gid: 0 },
  { path: `app/${'deep/'.repeat(30)}file.txt`, type: 'file', data: Buffer.from('long name\n'), mode: 0o644, uid: 0, gid: 0 },
  { path: 'bin', type: 'symlink', target: 'usr/bin', mode: 0o777, uid: 0, gid: 0 },
  { path: 'var', type: 'dir', mode: 0o755, uid: 65532, gid: 65532 },
];
const options = {
  entries,
  mtime: 1_700_000_000,
  name: 'pilothouse',
  tag: '0.1.0',
  config: { User: '65532:65532', Entrypoint: ['/usr/local/bin/pilothouse'], Env: ['NODE_ENV=production'] },
  labels: { 'org.opencontainers.image.version': '0.1.0' },
};

function unpack(archive: Buffer): string {
  const folder = mkdtempSync(join(tmpdir(), 'image-test-'));
  writeFileSync(join(folder, 'image.tar'), archive);
  execFileSync('tar', ['-xf', 'image.tar'], { cwd: folder });
  return folder;
}

describe('the image archive writer', () => {
  it('gives the same bytes for the same input, with an OCI layout and a docker manifest', () => {
    const first = imageArchive(options);
    const second = imageArchive(options);
    expect(second.manifestDigest).toBe(first.manifestDigest);
    expect(Buffer.compare(first.archive, second.archive)).toBe(0);
    const folder = unpack(first.archive);
    const read = (path: string): any => JSON.parse(execFileSync('cat', [join(folder, path)], { encoding: 'utf8' }));
    expect(read('oci-layout')).toEqual({ imageLayoutVersion: '1.0.0' });
    const index = read('index.json');
    expect(index.manifests[0].annotations['io.containerd.image.name']).toBe('docker.io/library/pilothouse:0.1.0');
    const manifest = read(`blobs/sha256/${index.manifests[0].digest.slice(7)}`);
    const config = read(`blobs/sha256/${manifest.config.digest.slice(7)}`);
    expect(config.config).toMatchObject({ User: '65532:65532', Entrypoint: ['/usr/local/bin/pilothouse'], Env: ['NODE_ENV=production'] });
    expect(config.config.Labels['org.opencontainers.image.version']).toBe('0.1.0');
    expect(read('manifest.json')).toEqual([
      {
        Config: `blobs/sha256/${manifest.config.digest.slice(7)}`,
        RepoTags: ['pilothouse:0.1.0'],
        Layers: [`blobs/sha256/${manifest.layers[0].digest.slice(7)}`],
      },
    ]);
    const listing = execFileSync('tar', ['-tvzf', join(folder, `blobs/sha256/${manifest.layers[0].digest.slice(7)}`)], { encoding: 'utf8' });
    expect(listing).toMatch(/-rw-r--r-- root\/root\s+15 2023-11-14 \d\d:13 app\/main.js/);
    expect(listing).toContain(`app/${'deep/'.repeat(30)}file.txt`);
    expect(listing).toMatch(/lrwxrwxrwx root\/root .* bin -> usr\/bin/);
    expect(listing).toMatch(/drwxr-xr-x nonroot\/nonroot .* var\//);
  });

  it('is accepted by skopeo (when installed) as an OCI archive', () => {
    const skopeo = spawnSync('skopeo', ['--version']);
    if (skopeo.status !== 0) return;
    const folder = mkdtempSync(join(tmpdir(), 'image-test-'));
    writeFileSync(join(folder, 'image.tar'), imageArchive(options).archive);
    const inspected = JSON.parse(execFileSync('skopeo', ['inspect', '--config', `oci-archive:${join(folder, 'image.tar')}`], { encoding: 'utf8' }));
    expect(inspected.config.User).toBe('65532:65532');
    expect(inspected.rootfs.diff_ids).toHaveLength(1);
  });
});
