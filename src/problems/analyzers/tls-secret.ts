import { X509Certificate } from 'node:crypto';
import { numberSetting, whereOf, type Analysis, type AnalysisContext, type Analyzer } from '../analyzer.js';
import type { FindingDraft } from '../finding.js';
import type { KubeThing } from '../shapes.js';

const day = 86_400_000;

/** The expiry (ms since the epoch) and subject of the first certificate of a base64 PEM bundle, or undefined when unreadable. */
export function certificateExpiry(pemBase64: string | undefined): { validTo: number; subject: string } | undefined {
  if (!pemBase64) return undefined;
  try {
    const certificate = new X509Certificate(Buffer.from(pemBase64, 'base64'));
    const validTo = Date.parse(certificate.validTo);
    return Number.isNaN(validTo) ? undefined : { validTo, subject: certificate.subject.replace(/\n/g, ', ') };
  } catch {
    return undefined;
  }
}

function expiryFinding(secret: KubeThing, expiry: { validTo: number; subject: string }, now: number): FindingDraft {
  const expired = expiry.validTo <= now;
  const notAfter = new Date(expiry.validTo).toISOString();
  const days = Math.max(0, Math.floor((expiry.validTo - now) / day));
  return {
    severity: expired ? 'critical' : 'warning',
    reason: expired ? 'CertificateExpired' : 'CertificateExpiring',
    message: expired
      ? `The certificate (${expiry.subject}) expired on ${notAfter}`
      : `The certificate (${expiry.subject}) expires in ${days} days, on ${notAfter}`,
    evidence: [`data["tls.crt"] notAfter: ${notAfter}`, `subject: ${expiry.subject}`],
    hint: `kubectl get secret ${whereOf(secret)} -o jsonpath='{.data.tls\\.crt}' | base64 -d | openssl x509 -noout -enddate`,
  };
}

function analyzeSecret(secret: KubeThing, context: AnalysisContext): Analysis {
  const expiry = secret.type === 'kubernetes.io/tls' ? certificateExpiry(secret.data?.['tls.crt']) : undefined;
  if (!expiry) return { findings: [] };
  const window = numberSetting(context, 'days', 14) * day;
  if (expiry.validTo - context.now > window) return { findings: [], recheckAt: expiry.validTo - window };
  return { findings: [expiryFinding(secret, expiry, context.now)], recheckAt: expiry.validTo > context.now ? expiry.validTo : undefined };
}

/** TLS Secrets (`kubernetes.io/tls`) whose certificate expires within 14 days (`days`), or has expired. */
export const tlsSecretAnalyzer: Analyzer = {
  name: 'tlssecret',
  kind: 'Secret',
  defaults: { days: 14 },
  analyze: (object, context) => analyzeSecret(object, context),
};
