import type { CommandClass } from './types.js';

/**
 * What a kubectl command (path) may do: run with a class, or be refused with a reason. A refused command still
 * has the class of what it is (`port-forward` is interactive): the analysis reports both facts.
 */
export type CommandRule = { class: CommandClass } | { refuse: string; class: CommandClass };

const read: CommandRule = { class: 'read' };
const write: CommandRule = { class: 'write' };
const interactive: CommandRule = { class: 'interactive' };
const refused = (reason: string, what: CommandClass): CommandRule => ({ refuse: reason, class: what });
const kubeconfigReason = 'kubectl config may only view (without --raw/--flatten), show the current context or list contexts';

const createCommands = [
  'clusterrole',
  'clusterrolebinding',
  'configmap',
  'cronjob',
  'deployment',
  'ingress',
  'job',
  'namespace',
  'poddisruptionbudget',
  'priorityclass',
  'quota',
  'role',
  'rolebinding',
  'secret',
  'secret docker-registry',
  'secret generic',
  'secret tls',
  'service',
  'service clusterip',
  'service externalname',
  'service loadbalancer',
  'service nodeport',
  'serviceaccount',
  'token',
];

/**
 * Every kubectl 1.36 command by path (`''` is plain `kubectl`). A command not listed here is refused
 * (the flag table test fails when kubectl grows a command nobody has judged).
 */
export const commandRules: Record<string, CommandRule> = {
  '': read,
  get: read,
  describe: read,
  logs: read,
  top: read,
  'top node': read,
  'top pod': read,
  explain: read,
  'api-resources': read,
  'api-versions': read,
  version: read,
  'cluster-info': read,
  'cluster-info dump': read,
  diff: read,
  events: read,
  wait: read,
  completion: read,
  kustomize: read,
  options: read,
  help: read,
  auth: read,
  'auth can-i': read,
  'auth whoami': read,
  'auth reconcile': write,
  rollout: read,
  'rollout status': read,
  'rollout history': read,
  'rollout restart': write,
  'rollout undo': write,
  'rollout pause': write,
  'rollout resume': write,
  apply: write,
  'apply view-last-applied': read,
  'apply set-last-applied': write,
  'apply edit-last-applied': refused('kubectl apply edit-last-applied opens an editor; use apply set-last-applied or patch', 'interactive'),
  create: write,
  ...Object.fromEntries(createCommands.map((name) => [`create ${name}`, write])),
  patch: write,
  label: write,
  annotate: write,
  scale: write,
  expose: write,
  autoscale: write,
  replace: write,
  run: write,
  set: read,
  'set env': write,
  'set image': write,
  'set resources': write,
  'set selector': write,
  'set serviceaccount': write,
  'set subject': write,
  cordon: write,
  uncordon: write,
  taint: write,
  certificate: read,
  'certificate approve': write,
  'certificate deny': write,
  delete: { class: 'dangerous' },
  drain: { class: 'dangerous' },
  exec: interactive,
  attach: interactive,
  cp: interactive,
  debug: interactive,
  edit: refused('kubectl edit opens an editor; use patch or apply', 'interactive'),
  proxy: refused('kubectl proxy opens a local listener to the API server; use the Pilothouse API', 'interactive'),
  'port-forward': refused('kubectl port-forward opens a local listener; use the Pilothouse port-forward API', 'interactive'),
  plugin: refused('kubectl plugins are not allowed', 'unknown'),
  'plugin list': refused('kubectl plugins are not allowed', 'read'),
  alpha: refused('kubectl alpha commands are not allowed', 'unknown'),
  kuberc: refused('kubectl kuberc edits local kubectl preferences', 'read'),
  'kuberc set': refused('kubectl kuberc edits local kubectl preferences', 'write'),
  'kuberc view': refused('kubectl kuberc reads local kubectl preferences', 'read'),
  config: read,
  'config view': read,
  'config current-context': read,
  'config get-contexts': read,
  ...Object.fromEntries(['get-clusters', 'get-users'].map((name) => [`config ${name}`, refused(kubeconfigReason, 'read')])),
  ...Object.fromEntries(
    ['delete-cluster', 'delete-context', 'delete-user', 'rename-context', 'set', 'set-cluster', 'set-context', 'set-credentials', 'unset', 'use-context'].map(
      (name) => [`config ${name}`, refused(kubeconfigReason, 'write')],
    ),
  ),
};

/** How a flag's value is checked. */
export type FlagRule =
  | 'allow'
  | { refuse: string }
  /** `-f`: `-`, or files inside the files root; URLs refused. Comma-separated list. */
  | 'filename'
  /** `-k` / `kubectl kustomize DIR`: a folder inside the files root; remote targets refused. */
  | 'kustomize'
  /** `-o`: formats reading a file (`jsonpath-file=PATH`...) must name a file inside the files root. */
  | 'output'
  /** A file kubectl reads: inside the files root. */
  | 'readPath'
  /** `--from-file=[key=]source`, comma-separated: inside the files root. */
  | 'fromFile'
  /** A file or folder kubectl writes: inside the files root; the command is at least `write`. */
  | 'writePath';

const identity = (flag: string, what: string): [string, FlagRule] => [flag, { refuse: `--${flag} chooses ${what}; the service sets it` }];

/** kubectl's global flags. */
export const globalFlagRules: Record<string, FlagRule> = {
  namespace: 'allow',
  'request-timeout': 'allow',
  'match-server-version': 'allow',
  'warnings-as-errors': 'allow',
  'disable-compression': 'allow',
  'log-flush-frequency': 'allow',
  help: 'allow',
  ...Object.fromEntries([
    identity('server', 'the API server'),
    identity('tls-server-name', 'the API server'),
    identity('insecure-skip-tls-verify', 'the API server'),
    identity('certificate-authority', 'the API server'),
    identity('kubeconfig', 'the kubeconfig'),
    identity('context', 'the kubeconfig context'),
    identity('cluster', 'the cluster'),
    identity('user', 'the identity'),
    identity('token', 'the identity'),
    identity('as', 'the identity'),
    identity('as-group', 'the identity'),
    identity('as-uid', 'the identity'),
    identity('as-user-extra', 'the identity'),
    identity('username', 'the identity'),
    identity('password', 'the identity'),
    identity('client-certificate', 'the identity'),
    identity('client-key', 'the identity'),
  ]),
  'cache-dir': { refuse: "--cache-dir writes kubectl's cache to a chosen folder" },
  profile: { refuse: '--profile writes a profile file' },
  'profile-output': { refuse: '--profile-output writes a profile file' },
  kuberc: { refuse: '--kuberc loads kubectl preferences (aliases, default flags) from a file' },
  v: { refuse: '-v (debug logging) can print request headers' },
  vmodule: { refuse: '--vmodule (debug logging) can print request headers' },
};

const kustomizeRefusal = (flag: string): [string, FlagRule] => [flag, { refuse: `--${flag} lets kustomize run programs or read outside its folder` }];

/** Local flags with a check or a refusal; the same name means the same in every command unless overridden below. */
const localFlagChecks: Record<string, FlagRule> = {
  filename: 'filename',
  kustomize: 'kustomize',
  output: 'output',
  'from-file': 'fromFile',
  'from-env-file': 'readPath',
  'patch-file': 'readPath',
  cert: 'readPath',
  key: 'readPath',
  custom: 'readPath',
  'output-directory': 'writePath',
  'insecure-skip-tls-verify-backend': { refuse: '--insecure-skip-tls-verify-backend skips TLS verification of the kubelet' },
  kubeconfig: { refuse: '--kubeconfig chooses the kubeconfig; the service sets it' },
  edit: { refuse: '--edit opens an editor' },
  ...Object.fromEntries(
    [
      'enable-helm',
      'helm-command',
      'helm-api-versions',
      'helm-kube-version',
      'helm-debug',
      'enable-alpha-plugins',
      'mount',
      'network',
      'network-name',
      'load-restrictor',
    ].map(kustomizeRefusal),
  ),
};

/** Per command overrides (`<path>:<flag>`). */
const commandFlagRules: Record<string, FlagRule> = {
  'kustomize:output': 'writePath',
  'config view:raw': { refuse: 'kubectl config view --raw prints credentials' },
  'config view:flatten': { refuse: 'kubectl config view --flatten prints credentials' },
};

/** Local flags reviewed as harmless: they shape output, select objects or set fields of the object being changed. */
const allowedLocalFlags = new Set(
  `
  aggregation-rule all all-containers all-namespaces all-pods allow-missing-template-keys allowlist-entry annotation annotations api-group
  api-version append-hash arguments-only as-current-user attach audience bound-object-kind bound-object-name
  bound-object-uid cached cascade categories chunk-size class client clusterip cluster-ip clusterrole command
  concurrency container containers copy-to cpu cpu-percent create-annotation current-replicas default-backend
  delete-emptydir-data description detach-keys disable-eviction docker-email docker-password docker-server
  docker-username dry-run duration enable-managedby-label env expose external-ip external-name field-manager field-selector follow for force
  force-conflicts from from-literal global-default grace-period group hard help ignore-daemonsets ignore-errors
  ignore-not-found image image-pull-policy interactive keep-annotations keep-init-containers keep-labels keep-liveness
  keep-readiness keep-startup keys label-columns labels leave-stdin-open limit-bytes limits list load-balancer-ip
  local max max-log-requests max-unavailable memory merge min min-available minify name name-only namespaced
  namespaces no-headers node-port non-resource-url now openapi-patch output-patch output-watch-events
  override-type overrides overwrite patch pod-running-timeout pod-selector policy port preemption-policy prefix
  previous privileged profile protocol prune prune-allowlist quiet raw record recursive remove-extra-permissions
  remove-extra-subjects reorder replace replicas requests resolve resource resource-name resource-version restart
  retries revision rm role rule same-node save-config schedule scopes selector server-print server-side
  serviceaccount session-affinity set-image share-processes show-capacity show-events show-kind show-labels
  show-managed-fields show-secrets show-swap since since-time skip-wait-for-delete-timeout sort-by stdin subresource
  sum tail target target-port tcp template timeout timestamps to-revision tty type types use-protocol-buffers user
  validate value verb verbs wait watch watch-only windows-line-endings no-preserve
`
    .trim()
    .split(/\s+/),
);

/** The rule of a flag as used by a command. */
export function flagRule(path: readonly string[], name: string, scope: 'local' | 'global'): FlagRule {
  if (scope === 'global') return globalFlagRules[name] ?? { refuse: `--${name} is not on the kubectl flag allowlist` };
  const override = commandFlagRules[`${path.join(' ')}:${name}`];
  if (override) return override;
  const check = localFlagChecks[name];
  if (check) return check;
  return allowedLocalFlags.has(name) ? 'allow' : { refuse: `--${name} is not on the kubectl flag allowlist` };
}
