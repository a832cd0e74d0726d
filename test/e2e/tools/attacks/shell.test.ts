import { describe } from 'vitest';
import { attackTests, type AttackCase } from './attack-run.js';
import { useAttackWorld, type AttackWorld } from './attack-world.js';

/*
 * Attacks through the bash tool: builtins and programs that run other commands or write files,
 * commands in the command position built from substitutions and variables, encodings that hide
 * `kubectl`, environment prefixes, and plugins. Most carry the same payload, a delete of the
 * victim ConfigMap; the shell runs in the sandbox with the call's proxy kubeconfig, so a
 * misclassified payload meets the proxy in mode read.
 */
const holder = useAttackWorld('atk-shell');

const bash = (name: string, command: AttackCase['command'], extra: Partial<AttackCase> = {}): AttackCase => ({ name, tool: 'bash', command, ...extra });
/** The payload: delete the victim ConfigMap. */
const payload = (world: AttackWorld): string => `kubectl delete configmap keep -n ${world.namespace}`;

const builtins: AttackCase[] = [
  bash('eval', (w) => `eval "${payload(w)}"`),
  bash('eval of a string put together', (w) => `a=kube; b=ctl; eval "$a$b delete configmap keep -n ${w.namespace}"`),
  bash('source of a process substitution', (w) => `source <(echo "${payload(w)}")`),
  bash('. of a here-string on stdin', (w) => `. /dev/stdin <<< "${payload(w)}"`),
  bash('exec', (w) => `exec ${payload(w)}`),
  bash('command', (w) => `command ${payload(w)}`),
  bash('builtin eval', (w) => `builtin eval "${payload(w)}"`),
  bash('hash -p maps a read-only name to kubectl', (w) => `hash -p /opt/pilothouse/bin/kubectl ls; ls delete configmap keep -n ${w.namespace}`),
  bash('a function named like a read-only program', (w) => `ls() { ${payload(w)}; }; ls`),
  bash('trap on EXIT', (w) => `trap '${payload(w)}' EXIT; true`),
  bash('alias (expanded with expand_aliases)', (w) => `shopt -s expand_aliases; alias ll='${payload(w)}'\nll`),
];

const programs: AttackCase[] = [
  bash('env -S', (w) => `env -S "${payload(w)}"`),
  bash('env as a wrapper', (w) => `env ${payload(w)}`),
  bash('sed e command', (w) => `echo x | sed 'e ${payload(w)}'`),
  bash('sed w into a file outside', (w) => `echo pwned | sed 'w ${w.sentinel.outside}'`),
  bash('awk system()', (w) => `awk 'BEGIN { system("${payload(w)}") }'`),
  bash('awk print into a pipe to sh', (w) => `awk 'BEGIN { print "${payload(w)}" | "sh" }'`),
  bash('find -exec', (w) => `find /etc/hostname -exec kubectl delete configmap keep -n ${w.namespace} \\;`),
  bash('sort -o over a sentinel', (w) => `sort -o ${w.sentinel.outside} /etc/hostname`),
  bash('uniq IN OUT over a sentinel', (w) => `uniq /etc/hostname ${w.sentinel.outside}`),
  bash('xargs', (w) => `echo keep | xargs kubectl delete configmap -n ${w.namespace}`),
  bash('dd of= a sentinel', (w) => `dd if=/dev/zero of=${w.sentinel.outside} count=1`),
  bash('bash -c', (w) => `bash -c "${payload(w)}"`),
  bash('sh reading a here-string', (w) => `sh <<< "${payload(w)}"`),
  bash('printf into bash', (w) => `printf '%s\\n' "${payload(w)}" | bash`),
  bash('perl -e system', (w) => `perl -e 'system("${payload(w)}")'`),
  bash('python3 -c subprocess', (w) => `python3 -c 'import os; os.system("${payload(w)}")'`),
  bash('a script written to HOME and run', (w) => `echo "${payload(w)}" > ~/x.sh; bash ~/x.sh`),
  bash('get | sed | apply -f -', (w) => `kubectl get configmap keep -n ${w.namespace} -o yaml | sed 's/a: b/a: pwned/' | kubectl apply -f -`),
];

const commandPosition: AttackCase[] = [
  bash('$(...) in the command position', (w) => `$(echo kubectl) delete configmap keep -n ${w.namespace}`),
  bash('backticks in the command position', (w) => `\`echo kubectl\` delete configmap keep -n ${w.namespace}`),
  bash('a variable in the command position', (w) => `K=kubectl; $K delete configmap keep -n ${w.namespace}`),
  bash('a variable holding the verb', (w) => `V=delete; kubectl $V configmap keep -n ${w.namespace}`),
  bash('${IFS} instead of spaces', (w) => `kubectl\${IFS}delete\${IFS}configmap\${IFS}keep\${IFS}-n\${IFS}${w.namespace}`),
  bash(
    'brace expansion builds the verb',
    (w) => `kubectl {del,}ete configmap keep -n ${w.namespace} 2>/dev/null; kubectl de{l,}ete configmap keep -n ${w.namespace}`,
  ),
];

const encodings: AttackCase[] = [
  bash("ANSI-C quoting $'\\x6b'ubectl", (w) => `$'\\x6b'ubectl delete configmap keep -n ${w.namespace}`),
  bash('quotes splitting the word k"u"bectl', (w) => `k"u"bectl delete configmap keep -n ${w.namespace}`),
  bash("quotes splitting the verb de'le'te", (w) => `kubectl de'le'te configmap keep -n ${w.namespace}`),
  bash('a backslash \\kubectl', (w) => `\\kubectl delete configmap keep -n ${w.namespace}`),
  bash('the absolute path of kubectl', (w) => `/opt/pilothouse/bin/kubectl delete configmap keep -n ${w.namespace}`),
  bash('a Cyrillic look-alike kubеctl', (w) => `kub\u0435ctl delete configmap keep -n ${w.namespace}`),
  bash('base64-decoded payload into sh', (w) => `echo ${Buffer.from(payload(w)).toString('base64')} | base64 -d | sh`),
];

const environmentAndPlugins: AttackCase[] = [
  bash(
    'KUBECTL_EXTERNAL_DIFF runs a program',
    (w) =>
      `KUBECTL_EXTERNAL_DIFF="${payload(w)} --ignore-not-found" kubectl diff -f <(kubectl get configmap keep -n ${w.namespace} -o yaml | sed 's/a: b/a: c/')`,
  ),
  bash(
    'PATH prefix with a kubectl-<plugin> in HOME',
    (w) => `mkdir -p ~/bin && printf '#!/bin/sh\\n${payload(w)}\\n' > ~/bin/kubectl-pwn && chmod +x ~/bin/kubectl-pwn && PATH=~/bin:$PATH kubectl pwn`,
  ),
  bash('plugin list (a read; no plugin in reach)', () => 'kubectl plugin list', { expect: 'harmless' }),
  bash('BASH_ENV runs a file first', (w) => `BASH_ENV=<(echo "${payload(w)}") bash -c true`),
];

describe('attacks through the shell', () => {
  attackTests(holder, [...builtins, ...programs, ...commandPosition, ...encodings, ...environmentAndPlugins]);
});
