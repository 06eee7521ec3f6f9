import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface KeyPair {
  cert: Buffer;
  key: Buffer;
}

export interface TestCertificates {
  dir: string;
  ca: Buffer;
  /** The server's certificate, for 127.0.0.1 and localhost. */
  server: KeyPair;
  /** Client certificates for mutual TLS, each signed by the CA. */
  clients: KeyPair[];
}

/** A private CA, a server certificate and `clients` client certificates (P-256), made with openssl in a temporary folder. */
export async function makeTestCertificates(clients = 2): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'cb-certs-'));
  const at = (name: string) => join(dir, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...newKey, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=community-bot test CA']);
  const issue = async (name: string, extensions: string) => {
    await run('openssl', ['req', ...newKey, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', `/CN=${name}`]);
    await writeFile(at(`${name}.ext`), extensions);
    await run('openssl', ['x509', '-req', '-in', at(`${name}.csr`), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at(`${name}.pem`), '-days', '2', '-extfile', at(`${name}.ext`)]);
    return { cert: await readFile(at(`${name}.pem`)), key: await readFile(at(`${name}.key`)) };
  };
  const server = await issue('server', 'basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  const issued: KeyPair[] = [];
  for (let i = 0; i < clients; i++) issued.push(await issue(`client-${i}`, 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n'));
  return { dir, ca: await readFile(at('ca.pem')), server, clients: issued };
}
