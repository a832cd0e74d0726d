const redacted = '[redacted]';

/** Secret values inside command lines: `--from-literal=k=v`, `--password x`, `token=x`, `Bearer x`. */
const secretInText = [
  /(--from-literal[= ][^=\s'"]+=)('[^']*'|"[^"]*"|\S+)/gi,
  /(--(?:password|token|client-key|api-key|bind-password)[= ])('[^']*'|"[^"]*"|\S+)/gi,
  /(\b[\w.-]*(?:password|passwd|token|secret|api_?key)[\w.-]*=)('[^']*'|"[^"]*"|[^\s,]+)/gi,
  /(\b(?:Bearer|Basic)\s+)([\w.~+/=-]+)/gi,
];

/**
 * Values that are secrets by their shape, wherever they stand and whatever the key holding them is
 * called: PEM blocks (private keys, certificates), JWTs (service account and OIDC tokens, Pilothouse's
 * own), and the high-entropy credentials with a known prefix (GitHub,
 * GitLab, Slack, OpenAI and Anthropic, AWS access key ids, Google API keys, Hugging Face, npm, PyPI).
 */
const secretShapes = [
  /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g,
  /\beyJ[\w-]{4,}\.eyJ[\w-]{4,}\.[\w-]*/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,}|glpat-[\w-]{20,}|xox[abeprs]-[\w-]{10,}|sk-(?:ant-|proj-)?[\w-]{20,}|A[KS]IA[0-9A-Z]{16}|AIza[\w-]{35}|hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36}|pypi-[\w-]{50,})/g,
];

/**
 * The fields of Pilothouse's own contract whose value is a credential by definition and has no shape
 * to recognise it by (a password is any text): `password`, `api_key`, `client_secret`,
 * `bind_password`, and the `authorization` header. Matched whole, never as a part of a name, so a
 * `tokenFingerprint` keeps its natural name and its value.
 */
const credentialFields = new Set([
  'password',
  'new_password',
  'current_password',
  'api_key',
  'apikey',
  'client_secret',
  'bind_password',
  'authorization',
  'cookie',
]);

/** Masks secret values written inline in a text (a command line, an error message) and values shaped like secrets. */
export function scrubText(text: string, knownSecrets: readonly string[] = []): string {
  const known = knownSecrets.filter((secret) => secret.length >= 8).reduce((current, secret) => current.replaceAll(secret, redacted), text);
  const shaped = secretShapes.reduce((current, pattern) => current.replace(pattern, redacted), known);
  return secretInText.reduce((current, pattern) => current.replace(pattern, `$1${redacted}`), shaped);
}

function redactValue(value: unknown, knownSecrets: readonly string[], depth: number): unknown {
  if (depth > 8) return redacted;
  if (typeof value === 'string') return scrubText(value, knownSecrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, knownSecrets, depth + 1));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, credentialFields.has(key.toLowerCase()) ? redacted : redactValue(inner, knownSecrets, depth + 1)]),
  );
}

/**
 * Redacts secrets by what they are, at every depth (objects inside objects and arrays): values
 * shaped like secrets, the secrets the service knows (`knownSecrets`: the configured LLM key...),
 * and the contract's credential fields. Keys are kept; a secret under an innocuous key is caught
 * by its value, and an innocent value under a secret-sounding key (a fingerprint) is kept.
 */
export function redactSecrets(details: Record<string, unknown>, knownSecrets: readonly string[] = []): Record<string, unknown> {
  return redactValue(details, knownSecrets, 0) as Record<string, unknown>;
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
