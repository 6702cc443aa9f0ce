/**
 * A CA of the "outside world" for tests, and a server certificate it signed for 127.0.0.1: what
 * a test's HTTPS server serves, and what the sandbox worker is told to trust upstream
 * (SANDBOX_UPSTREAM_CA_FILE). Made with the openssl command, in a directory of the test's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TestCa {
  /** The CA's certificate (PEM file). */
  caFile: string;
  /** The server's key and certificate, PEM. */
  server: { key: string; cert: string };
}

export async function makeTestCa(dir: string): Promise<TestCa> {
  const openssl = (...args: string[]) => {
    const out = Bun.spawnSync(['openssl', ...args], { cwd: dir, stderr: 'pipe' });
    if (out.exitCode !== 0) throw new Error(out.stderr.toString());
  };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=outside ca');
  await writeFile(join(dir, 'ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext');
  return { caFile: join(dir, 'ca.pem'), server: { key: await readFile(join(dir, 'server.key'), 'utf8'), cert: await readFile(join(dir, 'server.pem'), 'utf8') } };
}
