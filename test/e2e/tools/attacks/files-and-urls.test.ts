import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { attackTests, type AttackCase } from './attack-run.js';
import { useAttackWorld } from './attack-world.js';

/*
 * Attacks with files and URLs: flags that make kubectl write a file (profiles, caches, dumps),
 * reads of the service's own files through kubectl (`--from-file`, `-f`), shell redirections,
 * URL fetches (`-f http://...`, kustomize URLs; a local recording server stands in for the
 * metadata service) and raw API paths. The kubectl tool runs as the service's own OS user, so
 * only a refusal keeps it from the data dir; the bash tool runs in the sandbox.
 */
const holder = useAttackWorld('atk-files');

const kubectl = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'kubectl', command, ...extra });
const bash = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'bash', command, ...extra });

/** A relative output path lands in the service's working folder (the kubectl tool's): nothing may appear there. */
const relativeOutput = 'pwned.pprof';
const relativeCase: Partial<AttackCase> = {
  check: () => expect(existsSync(join(process.cwd(), relativeOutput)), `${relativeOutput} was written in the working folder`).toBe(false),
  cleanup: () => rmSync(join(process.cwd(), relativeOutput), { force: true }),
};
/** Closed by the classifier's flag allowlist (file-writing and file-reading flags, `-f` with a URL); until then the kubectl tool runs them. */

const fileWrites: AttackCase[] = [
  kubectl('--profile-output onto the data dir sentinel', (w) => `version --client --profile=cpu --profile-output=${w.sentinel.dataDir}`),
  kubectl('--profile-output onto a file outside the service', (w) => `get pods -n ${w.namespace} --profile=heap --profile-output=${w.sentinel.outside}`),
  kubectl('--profile-output relative (the working folder)', () => `version --client --profile=heap --profile-output=${relativeOutput}`, { ...relativeCase }),
  kubectl('--log-file (removed from kubectl; must not write)', (w) => `get pods -n ${w.namespace} --log-file=${w.sentinel.outside}`),
  kubectl('--cache-dir inside the data dir', (w) => `get pods -n ${w.namespace} --cache-dir=${w.dataDir}/pwned-cache`),
  kubectl(
    'cluster-info dump --output-directory into the data dir',
    (w) => `cluster-info dump --namespaces ${w.namespace} --output-directory=${w.dataDir}/pwned-dump`,
  ),
  kubectl('cluster-info dump --output-directory outside', (w) => `cluster-info dump --namespaces ${w.namespace} --output-directory=${w.scratch}/pwned-dump`),
  kubectl(
    'get -o jsonpath-file / template-file of the signing key (reads a service file)',
    (w) => `get pods -n ${w.namespace} -o go-template-file=${w.dataDir}/jwt-signing-key`,
  ),
  bash('redirect over the data dir sentinel', (w) => `kubectl get configmap keep -n ${w.namespace} -o yaml > ${w.sentinel.dataDir}`),
  bash('tee onto a file outside', (w) => `kubectl get configmap keep -n ${w.namespace} -o yaml | tee ${w.sentinel.outside}`),
  bash('--profile-output onto the store, in the sandbox', (w) => `kubectl version --client --profile=heap --profile-output=${w.dataDir}/pilothouse.db`),
];

const fileReads: AttackCase[] = [
  kubectl(
    '--from-file of the service kubeconfig, client dry run',
    (w) => `create configmap pwned-leak -n ${w.namespace} --from-file=${w.serviceKubeconfig} --dry-run=client -o yaml`,
  ),
  kubectl(
    '--from-file of the signing key, client dry run',
    (w) => `create secret generic pwned-key -n ${w.namespace} --from-file=${w.dataDir}/jwt-signing-key --dry-run=client -o yaml`,
  ),
  kubectl(
    '--from-env-file of the service kubeconfig',
    (w) => `create configmap pwned-env -n ${w.namespace} --from-env-file=${w.serviceKubeconfig} --dry-run=client -o json`,
  ),
  kubectl('get -f <the service kubeconfig>', (w) => `get -f ${w.serviceKubeconfig} -o yaml`),
  kubectl('apply -f <the service kubeconfig> as a server dry run', (w) => `apply -f ${w.serviceKubeconfig} --dry-run=server -o yaml`),
];

const urlFetches: AttackCase[] = [
  kubectl('get -f http://169.254.169.254/... (issue example)', () => 'get -f http://169.254.169.254/latest/meta-data/'),
  kubectl('get -f <recording server>', (w) => `get -f ${w.fetchUrl}/latest/meta-data/iam -n ${w.namespace}`),
  kubectl('create -f <recording server>', (w) => `create -f ${w.fetchUrl}/manifest.yaml -n ${w.namespace}`),
  kubectl('apply -f https://169.254.169.254/... (issue example)', () => 'apply -f https://169.254.169.254/latest/user-data'),
  kubectl('apply -f <url> --dry-run=server', (w) => `apply -f ${w.fetchUrl}/manifest.yaml --dry-run=server`),
  kubectl('kustomize <url>', (w) => `kustomize ${w.fetchUrl}/base`),
  kubectl('get -k <url>', (w) => `get -k ${w.fetchUrl}/overlay`),
  bash('kubectl get -f <url> in the sandbox', (w) => `kubectl get -f ${w.fetchUrl}/from-bash -n ${w.namespace}`),
  bash('curl to the recording server', (w) => `curl -s ${w.fetchUrl}/curl`),
];

const rawPaths: AttackCase[] = [
  kubectl('--raw with an encoded slash (%2F) reads only what the policy allowed', (w) => `get --raw /api/v1/namespaces/${w.namespace}/configmaps%2Fkeep`, {
    expect: 'harmless',
    check: (run) => expect(run.execution.result).toContain('"name":"keep"'),
  }),
  kubectl(
    '--raw to exec, shell characters unquoted',
    (w) => `get --raw /api/v1/namespaces/${w.namespace}/pods/victim/exec?command=touch&command=/tmp/pwned&stdout=true`,
  ),
  kubectl(
    '--raw to exec, quoted (GET on pods/exec)',
    (w) => `get --raw '/api/v1/namespaces/${w.namespace}/pods/victim/exec?command=touch&command=/tmp/pwned&stdout=true'`,
  ),
  kubectl('--raw to a pod proxy', (w) => `get --raw /api/v1/namespaces/${w.namespace}/pods/victim:80/proxy/`),
  kubectl('--raw to Pilothouse’s own Secrets', (w) => `get --raw /api/v1/namespaces/${w.service.namespace}/secrets`, {
    expect: { user: 'refused', admin: 'harmless' },
  }),
  kubectl(
    '--raw with dot segments into another namespace',
    (w) => `get --raw /api/v1/namespaces/${w.namespace}/configmaps/../../${w.service.namespace}/secrets`,
    {
      expect: { user: 'refused', admin: 'harmless' },
    },
  ),
];

/** Last: if this one got through, the store is gone for every later case. */
const storeOverwrite: AttackCase[] = [
  kubectl('--profile-output onto the SQLite store (issue example)', (w) => `version --client --profile=heap --profile-output=${w.dataDir}/pilothouse.db`),
];

describe('attacks with files and URLs', () => {
  attackTests(holder, [...fileWrites, ...fileReads, ...urlFetches, ...rawPaths, ...storeOverwrite]);
});
