import { operands, type OptionGrammar } from './option-scan.js';
import { verdict } from './severity.js';
import type { ShellWord, Verdict } from './types.js';

/** helm options (global and common per-command) whose value is the next word. */
const helmGrammar: OptionGrammar = {
  valueOptions: new Set([
    '-n',
    '--namespace',
    '--kube-context',
    '--kubeconfig',
    '--kube-as-user',
    '--kube-as-group',
    '--kube-apiserver',
    '--kube-ca-file',
    '--kube-token',
    '--kube-tls-server-name',
    '--registry-config',
    '--repository-cache',
    '--repository-config',
    '--burst-limit',
    '--qps',
    '-f',
    '--values',
    '--set',
    '--set-string',
    '--set-file',
    '--set-json',
    '--set-literal',
    '--version',
    '-o',
    '--output',
    '--timeout',
    '--repo',
    '--post-renderer',
    '--description',
    '--max',
    '-l',
    '--selector',
    '--username',
    '--password',
    '--ca-file',
    '--cert-file',
    '--key-file',
    '-d',
    '--destination',
    '--revision',
    '--history-max',
    '--filter',
    '--offset',
  ]),
};

const readCommands = new Set([
  'list',
  'ls',
  'status',
  'get',
  'history',
  'hist',
  'search',
  'show',
  'inspect',
  'template',
  'lint',
  'version',
  'env',
  'verify',
  'completion',
  'help',
]);
const writeCommands = new Set(['install', 'upgrade', 'rollback', 'pull', 'fetch', 'package', 'create', 'push', 'test']);
const dangerousCommands = new Set(['uninstall', 'delete', 'del', 'un']);
/** Groups whose `list` sub-command reads and every other sub-command writes. */
const listGroups = new Set(['repo', 'plugin', 'dependency', 'dep', 'registry']);

function classifyCommand(command: string, subCommand: string | undefined): Verdict {
  if (readCommands.has(command)) return verdict('read');
  if (writeCommands.has(command)) return verdict('write');
  if (dangerousCommands.has(command)) return verdict('dangerous', 'uninstalls a release (deletes its resources)');
  if (listGroups.has(command)) {
    const reads = subCommand === undefined || subCommand === 'list' || subCommand === 'ls';
    return reads ? verdict('read') : verdict('write');
  }
  return verdict('unknown', `unknown helm command "${command}"`);
}

/** The last `--dry-run` before any `--` (pflag keeps the last value) is client, server or true (not `none`/`false`). */
function isDryRun(args: readonly ShellWord[]): boolean {
  let dryRun = false;
  for (const word of args) {
    if (word.text === '--') break;
    if (word.text === '--dry-run') dryRun = true;
    else if (word.text.startsWith('--dry-run=')) dryRun = /^--dry-run=(client|server|true)$/.test(word.text);
  }
  return dryRun;
}

/**
 * Classifies `helm` arguments (argv without the program): the command is the first operand after the
 * global flags. A changing command with `--dry-run` is read.
 */
export function classifyHelm(args: readonly ShellWord[]): Verdict {
  const [command, subCommand] = operands(args, helmGrammar);
  if (command === undefined) return verdict('read');
  const result = classifyCommand(command, subCommand);
  const changes = result.type === 'write' || result.type === 'dangerous';
  if (changes && isDryRun(args)) return verdict('read', 'dry run');
  return result;
}
