import { describe } from 'vitest';
import { attackTests, type AttackCase } from './attack-run.js';
import { useAttackWorld } from './attack-world.js';

/*
 * Attacks on how the command text is read: kubectl's flag grammar (pflag: last value wins, glued
 * short flags, `--` ends flags, `=` and space forms, no abbreviations), dry-run tricks, spellings
 * of kinds and verbs, raw API requests that write. Every case would change the victim namespace
 * or kube-system if it ran; the checks show it did not.
 */
const holder = useAttackWorld('atk-grammar');

const kubectl = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'kubectl', command, ...extra });

const dryRunTricks: AttackCase[] = [
  kubectl('repeated --dry-run, last is none (issue example)', (w) => `delete namespace ${w.namespace} --dry-run=server --dry-run=none`),
  kubectl('--dry-run=client then --dry-run=none', (w) => `delete configmap keep -n ${w.namespace} --dry-run=client --dry-run=none`),
  kubectl('--dry-run without value then --dry-run=none', (w) => `label configmap keep pwned=yes -n ${w.namespace} --dry-run --dry-run=none`),
  kubectl('dry run on a scale, overridden', (w) => `scale deployment web --replicas=5 -n ${w.namespace} --dry-run=server --dry-run=none`),
  kubectl('create with two dry-run flags', (w) => `create configmap pwned-dry -n ${w.namespace} --dry-run=server --dry-run=none`),
  kubectl('--dry-run=server after -- (an operand, not a flag)', (w) => `delete configmap keep -n ${w.namespace} -- --dry-run=server`),
  kubectl('abbreviated --dry=server (pflag has no abbreviations)', (w) => `delete configmap keep -n ${w.namespace} --dry=server`),
  kubectl('--dry-run=Server (values are case-sensitive)', (w) => `annotate configmap keep pwned=yes -n ${w.namespace} --dry-run=Server`),
  kubectl('blocked pattern hidden behind a dry-run pair', () => 'delete namespace kube-system --dry-run=server --dry-run=none'),
];

const flagGrammar: AttackCase[] = [
  kubectl('glued -n<namespace>', (w) => `delete configmap keep -n${w.namespace}`),
  kubectl('--namespace=<ns> before the verb', (w) => `--namespace=${w.namespace} delete configmap keep`),
  kubectl('-n <ns> before the verb', (w) => `-n ${w.namespace} delete configmap/keep`),
  kubectl('repeated -n, the victim last', (w) => `delete configmap keep -n default -n ${w.namespace}`),
  kubectl('force delete with grace period 0', (w) => `delete configmap keep --namespace ${w.namespace} --grace-period=0 --force`),
  kubectl('an unknown global flag swallows "get" as its value', (w) => `--as-user-extra get delete cm/keep -n ${w.namespace}`),
  kubectl('label with --overwrite', (w) => `label configmap keep pwned=yes --overwrite -n ${w.namespace}`),
  kubectl('patch with a JSON merge patch', (w) => `patch configmap keep -n ${w.namespace} --type=merge -p {"data":{"a":"pwned"}}`),
  kubectl('set image on a deployment', (w) => `set image deployment/web nginx=evil:latest -n ${w.namespace}`),
  kubectl('rollout restart', (w) => `rollout restart deployment web -n ${w.namespace}`),
  kubectl('scale to zero', (w) => `scale deploy/web --replicas=0 -n ${w.namespace}`),
  kubectl('run a pod', (w) => `run pwned-pod --image=busybox -n ${w.namespace}`),
  kubectl('expose as a new service', (w) => `expose deployment web --port=80 --name=pwned-svc -n ${w.namespace}`),
  kubectl('bind cluster-admin to someone', () => 'create clusterrolebinding pwned-crb --clusterrole=cluster-admin --user=mallory'),
  kubectl('a plugin name (kubectl foo)', (w) => `pwn delete configmap keep -n ${w.namespace}`),
];

const caseTricks: AttackCase[] = [
  kubectl('delete Namespace kube-system (kind capitalised)', () => 'delete Namespace kube-system'),
  kubectl('delete namespaces kube-system (plural)', () => 'delete namespaces kube-system'),
  kubectl('delete ns kube-system (short name)', () => 'delete ns kube-system'),
  kubectl('delete ns/kube-system with a namespace flag', () => 'delete -n default ns/kube-system'),
  kubectl('DELETE in capitals', () => 'DELETE namespace kube-system'),
  kubectl('delete NAMESPACE,configmap kube-system (a kind list)', () => 'delete NAMESPACE,configmap kube-system'),
  kubectl('namespaces.v1. (resource.version.group)', () => 'delete namespaces.v1. kube-system'),
  kubectl('the victim namespace, short name', (w) => `delete ns ${w.namespace}`),
];

const rawWrites: AttackCase[] = [
  kubectl('create --raw posts a file', (w) => `create --raw /api/v1/namespaces/${w.namespace}/configmaps -f ${w.manifest}`),
  kubectl('replace --raw puts a file', (w) => `replace --raw /api/v1/namespaces/${w.namespace}/configmaps/keep -f ${w.manifest}`),
  kubectl('delete --raw', (w) => `delete --raw /api/v1/namespaces/${w.namespace}/configmaps/keep`),
];

describe('attacks on the kubectl grammar', () => {
  attackTests(holder, [...dryRunTricks, ...flagGrammar, ...caseTricks, ...rawWrites]);
});
