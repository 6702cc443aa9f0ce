/**
 * The box a session runs in, as bubblewrap arguments: a root of its own with the system's
 * directories read-only, writable tmpfs work directories of a fixed size (the session's disk),
 * its own user, PID, network, IPC and UTS namespaces, no capabilities, no new privileges (bwrap
 * sets no_new_privs, so setuid programs do not raise anyone), no user namespaces inside, and an
 * environment that is exactly `env`. Nothing of the product is mounted: not the checkout, not
 * SANDBOX_ROOT, not /root, /home, /var or /run; the program comes in as one read-only bundle.
 */

/** Where things are inside every sandbox. */
export const INSIDE = {
  workdir: '/workspace',
  sessionMounts: '/mnt/session',
  memory: '/mnt/memory',
  tmp: '/tmp',
  agent: '/opt/agent',
  bun: '/opt/agent/bin/bun',
  program: '/opt/agent/session-program.js',
  packages: '/opt/packages',
  egressSocket: '/run/sandbox/egress.sock',
  /** The CA bundle the sandbox trusts: the system's, plus the interception CA where there is one. */
  caBundle: '/opt/agent/ca-bundle.pem',
} as const;

/** The proxy the session's programs use (HTTP(S)_PROXY), forwarded by the session program to INSIDE.egressSocket. */
export const PROXY_PORT = 3128;

/** How a top-level system path of the host appears: merged-/usr hosts have symlinks, older ones directories. */
export type SystemPath = { path: string; kind: 'dir' } | { path: string; kind: 'symlink'; target: string };

export interface SandboxLayout {
  /** The host's /bin, /lib, /lib64, /sbin as they are (symlinks into /usr, or directories). */
  system: readonly SystemPath[];
  /** Bytes of each writable tmpfs (workdir, session mounts, memory, /tmp). */
  diskBytes: number;
  /** Host paths bound read-only at the inside path. */
  readOnly: readonly { host: string; inside: string }[];
  /** Host paths bound writable (the egress socket; an install's output directory). */
  writable: readonly { host: string; inside: string }[];
  env: Readonly<Record<string, string>>;
  command: readonly string[];
}

export function bubblewrapArgs(layout: SandboxLayout): string[] {
  const args = [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    '--ro-bind',
    '/etc',
    '/etc',
  ];
  for (const entry of layout.system) {
    if (entry.kind === 'symlink') args.push('--symlink', entry.target, entry.path);
    else args.push('--ro-bind', entry.path, entry.path);
  }
  args.push('--proc', '/proc', '--dev', '/dev');
  for (const dir of [INSIDE.tmp, INSIDE.workdir, INSIDE.sessionMounts, INSIDE.memory]) {
    args.push('--size', String(layout.diskBytes), '--perms', '0700', '--tmpfs', dir);
  }
  for (const bind of layout.readOnly) args.push('--ro-bind', bind.host, bind.inside);
  for (const bind of layout.writable) args.push('--bind', bind.host, bind.inside);
  // The root's skeleton (/opt, /run, the mount points) read-only too: only the tmpfs directories take writes.
  args.push('--remount-ro', '/', '--chdir', INSIDE.workdir, '--clearenv');
  for (const [name, value] of Object.entries(layout.env)) args.push('--setenv', name, value);
  args.push('--', ...layout.command);
  return args;
}

/** The proxy settings every common tool reads (curl reads the lower-case ones, npm and pip either). */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  return { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: '', no_proxy: '' };
}

/**
 * Every tool inside trusts the machine's CA bundle (the system's, where the operator adds a
 * corporate or mirror CA): Node and npm do not read it unless told, nor does pip's own bundle.
 */
export function trustEnvironment(bundle: string | undefined): Record<string, string> {
  if (!bundle) return {};
  return { NODE_EXTRA_CA_CERTS: bundle, SSL_CERT_FILE: bundle, REQUESTS_CA_BUNDLE: bundle, PIP_CERT: bundle, CURL_CA_BUNDLE: bundle, GIT_SSL_CAINFO: bundle };
}

/** PATH inside: the environment's packages first, then bun, then the system. */
export function insidePath(packageBins: readonly string[]): string {
  return [...packageBins, `${INSIDE.agent}/bin`, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':');
}
