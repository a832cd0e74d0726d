import type { FlagUse, KubectlCommandLine } from './kubectl-grammar.js';
import type { FlagRule } from './kubectl-rules.js';
import { localPathReason, remoteReason, sliceValues, type PathContext } from './local-paths.js';
import type { ShellWord } from './types.js';

/** The result of checking one value: a refusal, or whether it makes kubectl write local files. */
export interface ValueCheck {
  refusal?: string;
  writes?: boolean;
}

const fileFormats = new Set(['jsonpath-file', 'go-template-file', 'templatefile', 'custom-columns-file']);

function pathCheck(flag: string, value: string, context: PathContext, writes = false): ValueCheck {
  const reason = localPathReason(value, context);
  return reason === undefined ? { writes } : { refusal: `${flag} ${reason}` };
}

function listCheck(flag: FlagUse, context: PathContext, each: (item: string) => string): ValueCheck {
  const items = sliceValues(flag.value);
  if (!items) return { refusal: `${flag.written} with quoted, comma-separated values is not supported` };
  for (const item of items) {
    const target = each(item);
    if (target === '-' && flag.spec.name === 'filename') continue;
    const found = pathCheck(flag.written, target, context);
    if (found.refusal) return found;
  }
  return {};
}

function outputCheck(flag: FlagUse, line: KubectlCommandLine, context: PathContext): ValueCheck {
  const equals = flag.value.indexOf('=');
  const format = equals === -1 ? flag.value : flag.value.slice(0, equals);
  if (!fileFormats.has(format)) return {};
  if (equals !== -1) return pathCheck(`${flag.written} ${format}`, flag.value.slice(equals + 1), context);
  for (const template of line.flags.filter((use) => use.spec.name === 'template')) {
    const found = pathCheck(`--template (with -o ${format})`, template.value, context);
    if (found.refusal) return found;
  }
  return {};
}

/** Checks one flag's value against its rule. */
export function checkFlagValue(rule: FlagRule, flag: FlagUse, line: KubectlCommandLine, context: PathContext): ValueCheck {
  if (rule === 'allow') return {};
  if (typeof rule === 'object') return { refusal: rule.refuse };
  switch (rule) {
    case 'filename':
      return listCheck(flag, context, (item) => item);
    case 'fromFile':
      return listCheck(flag, context, (item) => (item.includes('=') ? item.slice(item.indexOf('=') + 1) : item));
    case 'kustomize':
      return pathCheck(flag.written, flag.value, context);
    case 'output':
      return outputCheck(flag, line, context);
    case 'readPath':
      return pathCheck(flag.written, flag.value, context);
    case 'writePath':
      return pathCheck(flag.written, flag.value, context, true);
  }
}

/** `kubectl cp` local side: no `:` (a pod side is `[namespace/]pod:path`). */
function cpCheck(args: readonly string[], context: PathContext, dynamic: ReadonlyMap<string, ShellWord>): ValueCheck {
  const [source, destination] = args;
  let writes = false;
  for (const [index, item] of [source, destination].entries()) {
    if (item === undefined || item.includes(':')) continue;
    if (dynamic.has(item)) return { refusal: 'kubectl cp with a local path computed at run time' };
    const found = pathCheck('kubectl cp', item, context);
    if (found.refusal) return found;
    writes ||= index === 1;
  }
  return { writes };
}

/** Positional arguments that name local files: `kubectl kustomize DIR`, `kubectl cp`. */
export function checkPositionals(line: KubectlCommandLine, context: PathContext, dynamic: ReadonlyMap<string, ShellWord>): ValueCheck {
  const name = line.path.join(' ');
  if (name === 'cp') return cpCheck(line.args, context, dynamic);
  if (name !== 'kustomize') return {};
  const target = line.args[0] ?? '.';
  if (dynamic.has(target)) return { refusal: 'kubectl kustomize with a folder computed at run time' };
  const remote = remoteReason(target);
  return remote ? { refusal: `kubectl kustomize ${remote}` } : pathCheck('kubectl kustomize', target, context);
}

function outputPaths(flag: FlagUse, line: KubectlCommandLine): string[] {
  const equals = flag.value.indexOf('=');
  const format = equals === -1 ? flag.value : flag.value.slice(0, equals);
  if (!fileFormats.has(format)) return [];
  return equals === -1 ? line.flags.filter((use) => use.spec.name === 'template').map((use) => use.value) : [flag.value.slice(equals + 1)];
}

function flagPaths(flag: FlagUse, rule: FlagRule, line: KubectlCommandLine): string[] {
  if (rule === 'filename') return (sliceValues(flag.value) ?? []).filter((item) => item !== '-');
  if (rule === 'fromFile') return (sliceValues(flag.value) ?? []).map((item) => (item.includes('=') ? item.slice(item.indexOf('=') + 1) : item));
  if (rule === 'kustomize' || rule === 'readPath') return [flag.value];
  return rule === 'output' ? outputPaths(flag, line) : [];
}

/** Local files and folders kubectl would read (`read`) or write (`write`), for the tool's check of symlinks before it runs. */
export function localPathsOf(line: KubectlCommandLine, ruleOf: (flag: FlagUse) => FlagRule): { read: string[]; write: string[] } {
  const read: string[] = [];
  const write: string[] = [];
  for (const flag of line.flags) {
    const rule = ruleOf(flag);
    if (rule === 'writePath') write.push(flag.value);
    else read.push(...flagPaths(flag, rule, line));
  }
  const name = line.path.join(' ');
  if (name === 'kustomize') read.push(line.args[0] ?? '.');
  if (name === 'cp') {
    const [source, destination] = line.args;
    if (source !== undefined && !source.includes(':')) read.push(source);
    if (destination !== undefined && !destination.includes(':')) write.push(destination);
  }
  return { read, write };
}
