/** One pflag flag of a kubectl command, as the generator read it from kubectl's command tree. */
export interface FlagSpec {
  /** Long name (`namespace`); `--namespace` or `--namespace=x`. */
  name: string;
  /** One-letter shorthand (`n`), when the flag has one. */
  shorthand?: string;
  /** pflag value type: `bool`, `string`, `stringSlice`, `stringArray`, `int`, `duration`... */
  type: string;
  /** pflag NoOptDefVal: the value when the flag is given without one (`--all`, `--dry-run`); absent → a value is required. */
  noOpt?: string;
}

/** One kubectl command (`get`, `rollout status`): its aliases and flags other than the global ones. */
export interface CommandSpec {
  aliases?: string[];
  /** False for groups without an action of their own (`kubectl rollout` prints help). */
  runnable: boolean;
  disableFlagParsing?: boolean;
  flags: FlagSpec[];
}

/** kubectl's grammar: global (persistent) flags, the root command's own flags, every command path. */
export interface KubectlFlagTable {
  global: FlagSpec[];
  root: FlagSpec[];
  /** Keyed by the command path joined by spaces (`create secret generic`). */
  commands: Record<string, CommandSpec>;
}

/** Names of a built-in resource type, as discovery announces them. */
export interface ResourceNames {
  group: string;
  plural: string;
  singular: string;
  kind: string;
  shortNames?: string[];
}
