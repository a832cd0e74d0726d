import type { BlockedPatterns } from './blocked-patterns.js';
import { argvText, programName } from './option-scan.js';
import { classifyProgram } from './program-classes.js';
import { classifyRedirect } from './redirect-classes.js';
import { combineVerdicts, verdict } from './severity.js';
import { parseErrorMessage, ShellLineParser, type ParsedLine } from './shell-syntax.js';
import type { PathContext } from './local-paths.js';
import type { ShellWord, Verdict } from './types.js';
import { unwrapCommand, type UnwrapStep, type WrapperInput } from './wrappers.js';

/** A verdict plus the blocked pattern that matched, if any. */
export interface Finding {
  verdict: Verdict;
  blockedBy?: string;
}

/** Scripts nested deeper than this (`bash -c "bash -c ..."`) are not followed: dangerous. */
const maximumDepth = 8;
/**
 * Shell lines with more words than this are not parsed (fail closed: dangerous): the shell parser
 * (mvdan/sh compiled to JavaScript) costs about half a millisecond per syntax node (bench/safety-parser.bench.ts).
 */
export const maximumShellWords = 1500;

/** Whitespace-separated words of a line, counted in one pass (an upper bound of the parser's words). */
function roughWordCount(line: string): number {
  let count = 0;
  let inWord = false;
  for (let index = 0; index < line.length; index += 1) {
    const blank = line.charCodeAt(index) <= 32;
    if (!blank && !inWord) count += 1;
    inWord = !blank;
  }
  return count;
}

/** Wrappers stacked deeper than this (`sudo env nice timeout ...`) are not followed: dangerous. */
const maximumHops = 16;

/** Variables that change which program runs, what it loads or where it connects. */
const sensitiveVariable =
  /^(PATH|LD_\w*|KUBE\w*|BASH_ENV|ENV|HOME|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH|GLOBIGNORE|HELM_\w*|NODE_OPTIONS|PYTHON\w*|PERL\w*|RUBY\w*|GIT_\w*|TMPDIR|EDITOR|VISUAL|PAGER|SSL_\w*|CURL_\w*|https?_proxy|HTTPS?_PROXY|ALL_PROXY|NO_PROXY)$/;

/**
 * Environment prefixes (`NAME=value program`), settings of sensitive variables, process substitutions and text bash
 * evaluates out of sight (arithmetic on variables, `${!x}`, `declare -n`...): at least write.
 */
function environmentFindings(parsed: ParsedLine): Finding[] {
  const found: Finding[] = parsed.prefixAssignments.map((name) => ({ verdict: verdict('write', `runs a program with ${name} set (environment prefix)`) }));
  for (const name of parsed.shellAssignments.filter((item) => sensitiveVariable.test(item))) found.push({ verdict: verdict('write', `sets ${name}`) });
  if (parsed.processSubstitutions > 0) found.push({ verdict: verdict('write', 'process substitution runs commands with a file of their own') });
  for (const reason of new Set(parsed.evaluations)) found.push({ verdict: verdict('write', reason) });
  return found;
}

function merge(findings: readonly Finding[]): Finding {
  const combined = combineVerdicts(findings.map((finding) => finding.verdict));
  const blockedBy = findings.find((finding) => finding.blockedBy !== undefined)?.blockedBy;
  return blockedBy === undefined ? { verdict: combined } : { verdict: combined, blockedBy };
}

/** Classifies shell lines: parses, walks every simple command, unwraps wrappers, re-parses nested scripts. */
export class LineClassifier {
  private readonly parser = new ShellLineParser();
  private readonly patterns: BlockedPatterns;
  private readonly readonlyPrograms: ReadonlySet<string>;
  private readonly paths: PathContext;

  constructor(patterns: BlockedPatterns, readonlyPrograms: ReadonlySet<string>, paths: PathContext) {
    this.patterns = patterns;
    this.readonlyPrograms = readonlyPrograms;
    this.paths = paths;
  }

  /** Classifies a shell line; unparseable input is dangerous (fail closed). */
  classifyLine(line: string, depth = 0): Finding {
    const lineBlock: Finding = { verdict: verdict('read'), blockedBy: this.patterns.match(line) };
    if (depth > maximumDepth) return merge([lineBlock, { verdict: verdict('dangerous', 'nested scripts too deep to analyze') }]);
    if (roughWordCount(line) > maximumShellWords) {
      return merge([lineBlock, { verdict: verdict('dangerous', `shell line of more than ${maximumShellWords} words is not analyzed`) }]);
    }
    try {
      const parsed = this.parser.parse(line);
      const commands = parsed.commands.map((command) =>
        this.classifyCommand(command.argv, { pipeFed: command.pipeFed, stdinText: command.stdinText, massExecution: false }, depth),
      );
      const redirects = parsed.redirects.map((redirect) => ({ verdict: classifyRedirect(redirect) }));
      const recursions = parsed.recursiveFunctions.map((name) => ({
        verdict: verdict('dangerous', `shell function "${name}" calls itself (possible fork bomb)`),
      }));
      return merge([lineBlock, ...commands, ...redirects, ...recursions, ...environmentFindings(parsed)]);
    } catch (error) {
      return merge([lineBlock, { verdict: verdict('dangerous', `could not parse command line: ${parseErrorMessage(error)}`) }]);
    }
  }

  private classifyCommand(argv: ShellWord[], input: WrapperInput, depth: number): Finding {
    const trail: Finding[] = [];
    let current = argv;
    let currentInput = input;
    for (let hop = 0; hop < maximumHops; hop += 1) {
      trail.push({ verdict: verdict('read'), blockedBy: this.patterns.match(argvText(current)) });
      const program = current[0];
      if (!program) return merge(trail);
      if (program.dynamic) return merge([...trail, { verdict: verdict('dangerous', 'program name is computed at run time') }]);
      const step = unwrapCommand(current, currentInput);
      if (!step) return merge([...trail, this.classifyFinal(current, currentInput.massExecution, depth)]);
      trail.push(this.classifyStep(step, depth));
      if (step.final || step.script !== undefined) return merge(trail);
      current = step.inner;
      currentInput = { ...currentInput, massExecution: currentInput.massExecution || step.massExecution === true };
    }
    return merge([...trail, { verdict: verdict('dangerous', 'too many nested wrapper commands') }]);
  }

  private classifyStep(step: UnwrapStep, depth: number): Finding {
    if (step.final) return { verdict: step.final };
    if (step.script !== undefined) {
      const script = this.classifyLine(step.script, depth + 1);
      return step.floor === undefined ? script : merge([script, { verdict: verdict(step.floor, ...(step.warning === undefined ? [] : [step.warning])) }]);
    }
    const warnings = step.warning === undefined ? [] : [step.warning];
    return { verdict: { type: step.floor ?? 'read', warnings } };
  }

  private classifyFinal(argv: ShellWord[], massExecution: boolean, depth: number): Finding {
    const [program, ...args] = argv;
    const name = program ? programName(program) : '';
    const finding = classifyProgram(name, args, {
      readonlyPrograms: this.readonlyPrograms,
      paths: this.paths,
      massExecution,
      classifyEach: (each) => this.classifyCommand(each, { pipeFed: false, massExecution: true }, depth + 1).verdict,
    });
    const blockedBy = this.patterns.match(...finding.patternTexts);
    return blockedBy === undefined ? { verdict: finding.verdict } : { verdict: finding.verdict, blockedBy };
  }
}
