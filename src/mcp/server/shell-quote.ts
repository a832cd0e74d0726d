const plainWord = /^[A-Za-z0-9_\-.,:=/@%+]+$/;

/** Quotes one argument for a shell-style command line (single quotes when needed). */
export function quoteArgument(argument: string): string {
  if (plainWord.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** Joins argv into a command line that shell-style splitting turns back into the same argv. */
export function commandLineOf(argv: readonly string[]): string {
  return argv.map(quoteArgument).join(' ');
}
