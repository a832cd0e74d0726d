const redacted = '[redacted]';

/** Secret values inside command lines: `--from-literal=k=v`, `--password x`, `token=x`, `Bearer x`. */
const secretInText = [
  /(--from-literal[= ][^=\s'"]+=)('[^']*'|"[^"]*"|\S+)/gi,
  /(--(?:password|token|client-key|api-key|bind-password)[= ])('[^']*'|"[^"]*"|\S+)/gi,
  /(\b[\w.-]*(?:password|passwd|token|secret|api_?key)[\w.-]*=)('[^']*'|"[^"]*"|[^\s,]+)/gi,
  /(\bBearer\s+)([\w.~+/=-]+)/gi,
];

/** Masks secret values written inline in a text (a command line, an error message). */
export function scrubText(text: string): string {
  return secretInText.reduce((current, pattern) => current.replace(pattern, `$1${redacted}`), text);
}

/**
 * Makes a message from kubectl/helm fit for an API response: secrets masked, and the paths of
 * Pilothouse's own files (kubeconfig, data dir, binaries) replaced by a placeholder.
 */
export function scrubToolMessage(message: string, privatePaths: readonly (string | undefined)[]): string {
  let text = scrubText(message);
  for (const privatePath of privatePaths) {
    if (privatePath) text = text.replaceAll(privatePath, '<private path>');
  }
  return text;
}
