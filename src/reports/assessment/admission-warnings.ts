/** One pod group the PodSecurity admission names in a warning: `web-1 (and 2 other pods): privileged, hostPath volumes`. */
export interface PodViolation {
  pod: string;
  /** Pods besides `pod` with the same violations. */
  others: number;
  violations: string;
}

/** Splits HTTP `Warning` header values (`299 - "text"`, several joined by commas) into their texts. */
export function warningTexts(header: string | null): string[] {
  if (!header) return [];
  const texts: string[] = [];
  for (const match of header.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)) texts.push((match[1] ?? '').replace(/\\(.)/g, '$1'));
  return texts;
}

const podLine = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?)(?: \(and (\d+) other pods?\))?: (.+)$/;

/** The pod violations among PodSecurity's warnings; the other warnings (limits, time-outs) as notes. */
export function parseAdmissionWarnings(texts: string[]): { violations: PodViolation[]; notes: string[] } {
  const violations: PodViolation[] = [];
  const notes: string[] = [];
  for (const text of texts) {
    const match = podLine.exec(text);
    if (match) violations.push({ pod: match[1] ?? '', others: Number(match[3] ?? 0), violations: match[4] ?? '' });
    else if (!text.startsWith('existing pods in namespace')) notes.push(text);
  }
  return { violations, notes };
}
