/**
 * The certificate authority of the sandbox's proxy: scripts that call https://<public host> get a
 * certificate for that host signed by this CA, which each run trusts through SSL_CERT_FILE,
 * REQUESTS_CA_BUNDLE and NODE_EXTRA_CA_CERTS. Keys come from Node's crypto (fast, native);
 * node-forge writes the X.509 structures.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface CaPem {
  cert: string;
  key: string;
}

function rsaKey(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return { pem, forgeKey: forge.pki.privateKeyFromPem(pem) };
}

function serial(): string {
  // Positive, 16 bytes.
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

/** A new self-signed CA, valid ten years. */
export function makeCa(): CaPem {
  const { pem, forgeKey } = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600_000);
  const name = [
    { name: 'commonName', value: 'biomirror sandbox proxy CA' },
    { name: 'organizationName', value: 'biomirror (local)' },
  ];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }, { name: 'subjectKeyIdentifier' }]);
  cert.sign(forgeKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: pem };
}

/** Issues (and remembers) a server certificate per host, all on one key made at start. */
export class CertificateIssuer {
  private readonly caCert: forge.pki.Certificate;
  private readonly caKey: forge.pki.rsa.PrivateKey;
  // One key for every host certificate, made on first use.
  private leafKey: { pem: string; forgeKey: forge.pki.rsa.PrivateKey } | undefined;
  private readonly issued = new Map<string, string>();

  constructor(readonly ca: CaPem) {
    this.caCert = forge.pki.certificateFromPem(ca.cert);
    this.caKey = forge.pki.privateKeyFromPem(ca.key) as forge.pki.rsa.PrivateKey;
  }

  private get leaf(): { pem: string; forgeKey: forge.pki.rsa.PrivateKey } {
    this.leafKey ??= rsaKey();
    return this.leafKey;
  }

  get keyPem(): string {
    return this.leaf.pem;
  }

  certFor(host: string): string {
    const known = this.issued.get(host);
    if (known) return known;
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.setRsaPublicKey(this.leaf.forgeKey.n, this.leaf.forgeKey.e);
    cert.serialNumber = serial();
    cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
    cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
    cert.setSubject([{ name: 'commonName', value: host }]);
    cert.setIssuer(this.caCert.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: host }] },
      { name: 'subjectKeyIdentifier' },
      { name: 'authorityKeyIdentifier', keyIdentifier: this.caCert.generateSubjectKeyIdentifier().getBytes() },
    ]);
    cert.sign(this.caKey, forge.md.sha256.create());
    const pem = forge.pki.certificateToPem(cert);
    this.issued.set(host, pem);
    return pem;
  }
}
