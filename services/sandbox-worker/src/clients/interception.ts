import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/**
 * The per-installation certificate authority the sessions' egress proxies intercept TLS with,
 * only towards hosts a session's environment-variable credential applies to: made once under the
 * worker's root (or given: SANDBOX_INTERCEPTION_CA_CERT/_KEY, shared by every worker of an
 * installation), trusted by the sandboxes alone (their CA bundle is the system's plus this one;
 * the machine's own trust store is untouched). A host's certificate is made on first use and kept.
 */
export interface Interception {
  /** The system's CA bundle, the operator's extra CAs and this CA: what the sandboxes trust. */
  bundle: string;
  /** The TLS context the proxy serves `host` with. */
  contextFor(host: string): SecureContext;
  /** What the proxy verifies the real host with: the system's CAs and any the operator adds (SANDBOX_UPSTREAM_CA_FILE). */
  upstreamCa: string[] | undefined;
}

export async function prepareInterception(options: { root: string; caCert?: string; caKey?: string; systemBundle?: string; upstreamCaFile?: string }): Promise<Interception> {
  const dir = join(options.root, '.interception');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const caCert = options.caCert ?? join(dir, 'ca.pem');
  const caKey = options.caKey ?? join(dir, 'ca.key');
  if (!options.caCert && !(await present(caCert))) {
    openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', caKey, '-out', caCert, '-days', '3650', '-subj', '/CN=agent sandbox egress interception', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await chmod(caKey, 0o600);
  }
  const system = options.systemBundle ? await readFile(options.systemBundle, 'utf8') : '';
  const upstreamExtra = options.upstreamCaFile ? await readFile(options.upstreamCaFile, 'utf8') : undefined;
  const bundle = join(options.root, '.program', 'ca-bundle.pem');
  await mkdir(join(options.root, '.program'), { recursive: true, mode: 0o755 });
  // The operator's extra CAs too: a session reaching a mirror directly trusts what the proxy would.
  await writeFile(bundle, [system.trimEnd(), upstreamExtra?.trimEnd(), await readFile(caCert, 'utf8')].filter(Boolean).join('\n'), { mode: 0o644 });
  const contexts = new Map<string, SecureContext>();
  return {
    bundle,
    upstreamCa: upstreamExtra ? [...rootCertificates, ...(system ? [system] : []), upstreamExtra] : undefined,
    contextFor(host) {
      let context = contexts.get(host);
      if (!context) {
        const name = host.replace(/[^A-Za-z0-9.-]/g, '_');
        const key = join(dir, `${name}.key`);
        const csr = join(dir, `${name}.csr`);
        const cert = join(dir, `${name}.pem`);
        const ext = join(dir, `${name}.ext`);
        const san = /^[\d.]+$/.test(host) || host.includes(':') ? `IP:${host}` : `DNS:${host}`;
        writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
        openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${name}`]);
        openssl(['x509', '-req', '-in', csr, '-CA', caCert, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '825', '-extfile', ext]);
        context = createSecureContext({ key: readFileSync(key), cert: readFileSync(cert) });
        contexts.set(host, context);
      }
      return context;
    },
  };
}

function openssl(args: string[]): void {
  const out = Bun.spawnSync(['openssl', ...args], { stderr: 'pipe', stdout: 'ignore' });
  if (out.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${out.stderr.toString().trim()}`);
}

async function present(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
