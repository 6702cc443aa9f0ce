import { createHash } from 'node:crypto';
import { INSIDE } from './sandbox-layout';

/**
 * An environment's `packages` (SDK `BetaPackages`): installed once per distinct list into a cache
 * directory (clients/package-cache.ts), by a script that runs in a sandbox of its own whose only
 * way out is the package registries, then mounted read-only at /opt/packages into every session
 * of an environment with the same lists. Keyed by the lists, not the environment: two
 * environments asking for the same packages share one install, and an environment whose lists
 * change gets a new one.
 */
export interface PackageLists {
  apt: readonly string[];
  cargo: readonly string[];
  gem: readonly string[];
  go: readonly string[];
  npm: readonly string[];
  pip: readonly string[];
}

const MANAGERS = ['apt', 'pip', 'npm', 'cargo', 'gem', 'go'] as const;
type Manager = (typeof MANAGERS)[number];

export function hasPackages(lists: PackageLists): boolean {
  return MANAGERS.some((manager) => lists[manager].length > 0);
}

/** The cache key: the lists in a fixed order (each list as given: order can matter to a manager). */
export function packagesKey(lists: PackageLists): string {
  const canonical = JSON.stringify(MANAGERS.map((manager) => [manager, lists[manager]]));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** A package name that a manager would read as an option, or that holds a shell or path trick, is refused before anything runs. */
export function badPackageName(lists: PackageLists): string | undefined {
  for (const manager of MANAGERS) {
    for (const name of lists[manager]) {
      if (name.startsWith('-') || /[\s\0'"`$\\;|&<>]/.test(name)) return `${manager} package ${JSON.stringify(name)} is not a package name`;
    }
  }
  return undefined;
}

const P = INSIDE.packages;

/** Each manager's install, into its own folder under /opt/packages; the tool must be on the worker. */
const INSTALL: Record<Manager, { tool: string; command: (names: string) => string }> = {
  apt: {
    tool: 'apt-get',
    // No root in the sandbox: the packages are downloaded and unpacked, not installed (no maintainer scripts, no dependencies).
    command: (names) =>
      `mkdir -p ${P}/apt/debs && cd ${P}/apt/debs && apt-get -o Dir::Cache=/tmp/apt-cache -o Dir::State::Lists=/var/lib/apt/lists -o Debug::NoLocking=1 download ${names} && for deb in *.deb; do dpkg-deb -x "$deb" ${P}/apt; done && rm -rf ${P}/apt/debs`,
  },
  pip: { tool: 'python3', command: (names) => `python3 -m pip install --no-input --disable-pip-version-check --no-warn-script-location --target ${P}/pip ${names}` },
  npm: { tool: 'npm', command: (names) => `npm install --prefix ${P}/npm --no-audit --no-fund --no-update-notifier --loglevel=error ${names}` },
  cargo: { tool: 'cargo', command: (names) => `CARGO_HOME=/tmp/cargo cargo install --root ${P}/cargo ${names}` },
  gem: { tool: 'gem', command: (names) => `gem install --no-document --install-dir ${P}/gem --bindir ${P}/gem/bin ${names}` },
  go: { tool: 'go', command: (names) => `GOPATH=/tmp/go GOCACHE=/tmp/go-cache GOBIN=${P}/go/bin go install ${names}` },
};

/**
 * The install script: each manager in turn, stopping at the first that fails with a line naming
 * it and its packages (the session.error the worker reports carries that line and the tool's own
 * output, which names the package it could not find).
 */
export function installScript(lists: PackageLists): string {
  const lines = ['set -u'];
  for (const manager of MANAGERS) {
    const names = lists[manager];
    if (names.length === 0) continue;
    const quoted = names.map((name) => `'${name}'`).join(' ');
    const what = `${manager} packages ${names.join(', ')}`;
    const { tool, command } = INSTALL[manager];
    const versioned = manager === 'go' ? names.map((n) => `'${n.includes('@') ? n : `${n}@latest`}'`).join(' ') : quoted;
    lines.push(`command -v ${tool} >/dev/null || { echo "installing ${what} failed: ${tool} is not installed on this worker" >&2; exit 3; }`);
    lines.push(`( ${command(versioned)} ) >&2 || { echo "installing ${what} failed" >&2; exit 4; }`);
  }
  return lines.join('\n');
}

/** What a session's environment adds so its programs find the packages. */
export function packagesEnvironment(): { bins: string[]; env: Record<string, string> } {
  return {
    bins: [`${P}/npm/node_modules/.bin`, `${P}/pip/bin`, `${P}/cargo/bin`, `${P}/gem/bin`, `${P}/go/bin`, `${P}/apt/usr/bin`, `${P}/apt/bin`],
    env: {
      NODE_PATH: `${P}/npm/node_modules`,
      PYTHONPATH: `${P}/pip`,
      GEM_PATH: `${P}/gem`,
      LD_LIBRARY_PATH: `${P}/apt/usr/lib/x86_64-linux-gnu:${P}/apt/usr/lib/aarch64-linux-gnu:${P}/apt/usr/lib:${P}/apt/lib`,
    },
  };
}
