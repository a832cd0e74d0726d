import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loopbackCertificate } from './loopback-certificate.js';

describe('loopback certificate', () => {
  it('is a valid self-signed certificate for 127.0.0.1 with its key', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const { cert, key } = loopbackCertificate(now);
    const certificate = new X509Certificate(cert);
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('example.com')).toBeUndefined();
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(certificate.subject).toBe('CN=pilothouse policy proxy');
    // Valid from five minutes before (clock skew) for a day.
    expect(new Date(certificate.validFrom).toISOString()).toBe('2026-11-23T11:55:00.000Z');
    expect(new Date(certificate.validTo).toISOString()).toBe('2026-11-24T12:00:00.000Z');
    expect(createPublicKey(key).asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
  });

  it('is a new key and serial every time', () => {
    const [first, second] = [new X509Certificate(loopbackCertificate().cert), new X509Certificate(loopbackCertificate().cert)];
    expect(first.serialNumber).not.toBe(second.serialNumber);
    expect(first.fingerprint256).not.toBe(second.fingerprint256);
  });
});
