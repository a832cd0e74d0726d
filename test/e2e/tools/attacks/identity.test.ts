import { describe, expect } from 'vitest';
import { attackTests, type AttackCase } from './attack-run.js';
import { useAttackWorld, type AttackRole } from './attack-world.js';

/*
 * Identity switches: flags and environment that pick another server, user, token or kubeconfig,
 * and the reads that used to print the service's credentials (`config view --raw`). Impersonation
 * is on: `user` acts as the service account ph-user, `admin` as ph-admin (both may only read pods
 * and configmaps of the victim namespace), so any request that ran as the service would show.
 */
const holder = useAttackWorld('atk-identity', { impersonation: true });

const kubectl = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'kubectl', command, ...extra });
const bash = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'bash', command, ...extra });
const account = (role: AttackRole): string => (role === 'user' ? 'ph-user' : 'ph-admin');

/** The victim's Secret never shows: every way to it either fails or runs as the caller's account (no RBAC on secrets). */
const noSecret: AttackCase['check'] = (run) => {
  expect(run.execution.result).not.toContain('db-password');
  expect(run.execution.result).not.toContain(Buffer.from('db-password').toString('base64'));
};

const endpointSwitches: AttackCase[] = [
  kubectl('glued -s<real API server> (issue example)', (w) => `get secrets -n ${w.namespace} -s${w.apiServer}`, { check: noSecret }),
  kubectl('glued -s to a dead port', (w) => `get pods -n ${w.namespace} -shttps://127.0.0.1:1`),
  kubectl('--server with --insecure-skip-tls-verify', (w) => `get secrets -n ${w.namespace} --server=${w.apiServer} --insecure-skip-tls-verify`, {
    check: noSecret,
  }),
  kubectl('--kubeconfig=<the service kubeconfig>', (w) => `get secrets -n ${w.namespace} --kubeconfig=${w.serviceKubeconfig}`, { check: noSecret }),
  kubectl('--kubeconfig <path> (space form) before the verb', (w) => `--kubeconfig ${w.serviceKubeconfig} delete configmap keep -n ${w.namespace}`),
  kubectl('--context of the service kubeconfig', (w) => `get secrets -n ${w.namespace} --context=testcluster`, { check: noSecret }),
  kubectl('--cluster', (w) => `get secrets -n ${w.namespace} --cluster testcluster`, { check: noSecret }),
  kubectl('--tls-server-name', (w) => `get pods -n ${w.namespace} --tls-server-name=kubernetes`),
  kubectl('--certificate-authority of the system', (w) => `get pods -n ${w.namespace} --certificate-authority=/etc/ssl/certs/ca-certificates.crt`),
];

const userSwitches: AttackCase[] = [
  kubectl('--as=system:admin', (w) => `get secrets -n ${w.namespace} --as=system:admin`, { check: noSecret }),
  kubectl('--as-group=system:masters', (w) => `get secrets -n ${w.namespace} --as=x --as-group=system:masters`, { check: noSecret }),
  kubectl('--as-uid', (w) => `delete configmap keep -n ${w.namespace} --as-uid=0`),
  kubectl('--token', (w) => `get secrets -n ${w.namespace} --token=not-a-real-token`, { check: noSecret }),
  kubectl('--user of the service kubeconfig', (w) => `get secrets -n ${w.namespace} --user=admin`, { check: noSecret }),
  kubectl('--username and --password', (w) => `get secrets -n ${w.namespace} --username=admin --password=admin`, { check: noSecret }),
  kubectl('--as-user-extra alone', () => 'auth whoami -o json --as-user-extra=pwned=yes'),
];

const credentialReads: AttackCase[] = [
  // Refused by the classifier today; were it run, the proxy kubeconfig is all there is to print.
  kubectl('config view --raw (issue example): refused, or only the call’s own proxy', () => 'config view --raw', {
    expect: 'harmless',
    check: (run, world) => {
      if (run.execution.status !== 'executed') return void expect(run.execution.result).toMatch(/config view|--raw/);
      expect(run.execution.result).toMatch(/server: https:\/\/127\.0\.0\.1:\d+/);
      expect(run.execution.result).not.toContain(world.apiServer);
    },
  }),
  kubectl('config view --raw --flatten --minify', () => 'config view --raw --flatten --minify -o json', { expect: 'harmless' }),
  kubectl('config view --raw of the service kubeconfig', (w) => `config view --raw --kubeconfig=${w.serviceKubeconfig}`),
  kubectl('--kuberc=<the service kubeconfig>', (w) => `get pods -n ${w.namespace} --kuberc=${w.serviceKubeconfig} --v=6`, { expect: 'harmless' }),
  kubectl('request logging at -v=10 (headers)', (w) => `get pods -n ${w.namespace} --v=10`, { expect: 'harmless' }),
  kubectl('auth can-i --list (an allowed read)', (w) => `auth can-i --list -n ${w.namespace}`, {
    expect: 'harmless',
    check: (run) => expect(run.execution).toMatchObject({ status: 'executed', result: expect.stringContaining('configmaps') }),
  }),
  kubectl('auth can-i create pods (answers no for the caller)', (w) => `auth can-i create pods -n ${w.namespace}`, {
    expect: 'harmless',
    check: (run) => expect(run.execution.result).toMatch(/^no/),
  }),
];

const shellSwitches: AttackCase[] = [
  bash('KUBECONFIG=<the service kubeconfig> prefix', (w) => `KUBECONFIG=${w.serviceKubeconfig} kubectl get secrets -n ${w.namespace}`, { check: noSecret }),
  bash('--kubeconfig=<the service kubeconfig> with a delete', (w) => `kubectl --kubeconfig=${w.serviceKubeconfig} delete configmap keep -n ${w.namespace}`),
  bash(
    '--as and --as-group are dropped by the proxy',
    () => 'kubectl --as=kubernetes-admin --as-group=system:masters auth whoami -o jsonpath={.status.userInfo.username}',
    {
      expect: 'harmless',
      check: (run, world, role) => {
        // Refused by the classifier today (`--as` picks the identity); were it run, the proxy drops the headers.
        if (run.execution.status === 'blocked') return void expect(run.execution.result).toMatch(/--as/);
        expect(run.execution.result).toContain(`system:serviceaccount:${world.namespace}:${account(role)}`);
      },
    },
  ),
  bash('--as-user-extra is dropped by the proxy', () => 'kubectl --as=kubernetes-admin --as-user-extra=scopes=all auth whoami -o json', {
    expect: 'harmless',
    check: (run, world, role) => {
      if (run.execution.status === 'blocked') return void expect(run.execution.result).toMatch(/--as/);
      expect(run.execution.result).toContain(`system:serviceaccount:${world.namespace}:${account(role)}`);
      expect(run.execution.result).not.toContain('scopes');
    },
  }),
  bash('--as=kubernetes-admin with a delete', (w) => `kubectl --as=kubernetes-admin delete configmap keep -n ${w.namespace}`),
  bash('-s <real API server> with the proxy token', (w) => `kubectl -s ${w.apiServer} --insecure-skip-tls-verify get secrets -n ${w.namespace}`, {
    check: noSecret,
  }),
  bash(
    'a service-account token from the pod folder',
    (w) => `kubectl --token="$(cat /var/run/secrets/kubernetes.io/serviceaccount/token)" get secrets -n ${w.namespace}`,
    { check: noSecret },
  ),
  bash('cat the service kubeconfig', (w) => `cat ${w.serviceKubeconfig}`),
  bash('the environment and config view --raw', () => 'env; kubectl config view --raw', { expect: 'harmless' }),
  bash('a secret read as the caller (impersonation holds in bash)', (w) => `kubectl get secret db -n ${w.namespace} -o yaml`, {
    check: (run, world, role) =>
      expect(run.execution.result).toContain(`system:serviceaccount:${world.namespace}:${account(role)}" cannot get resource "secrets"`),
  }),
];

describe('attacks on identity and credentials', () => {
  attackTests(holder, [...endpointSwitches, ...userSwitches, ...credentialReads, ...shellSwitches]);
});
