import { createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { bitString, explicit, objectIdentifier, octetString, sequence, set, tlv, unsignedInteger, utcTime, utf8String } from './der.js';

/** A TLS certificate and key for 127.0.0.1, PEM. */
export interface LoopbackCertificate {
  cert: string;
  key: string;
}

const ecdsaWithSha256 = sequence(objectIdentifier('1.2.840.10045.4.3.2'));
const name = sequence(set(sequence(objectIdentifier('2.5.4.3'), utf8String('pilothouse policy proxy'))));
/** subjectAltName: IP 127.0.0.1 (`[7] IMPLICIT OCTET STRING`). */
const loopbackAltName = sequence(objectIdentifier('2.5.29.17'), octetString(sequence(tlv(0x87, Buffer.from([127, 0, 0, 1])))));
/** extKeyUsage: serverAuth. */
const serverAuth = sequence(objectIdentifier('2.5.29.37'), octetString(sequence(objectIdentifier('1.3.6.1.5.5.7.3.1'))));

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * A fresh self-signed ECDSA P-256 certificate for IP 127.0.0.1, valid for a day: the proxy serves
 * TLS with it (kubectl sends a bearer token only over TLS) and the generated kubeconfig trusts
 * exactly this certificate. The key never leaves the service's memory.
 */
export function loopbackCertificate(now = new Date()): LoopbackCertificate {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const validity = sequence(utcTime(new Date(now.getTime() - 5 * 60_000)), utcTime(new Date(now.getTime() + 24 * 3600_000)));
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    ecdsaWithSha256,
    name,
    validity,
    name,
    publicKey,
    explicit(3, sequence(loopbackAltName, serverAuth)),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  return {
    cert: pem('CERTIFICATE', sequence(tbs, ecdsaWithSha256, bitString(signature))),
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
