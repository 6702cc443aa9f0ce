/**
 * A cloud session's tools, tried as an attacker would, on a default sandbox worker (bubblewrap,
 * per-session uid, control groups): every probe is refused. Each runs in the agent's bash through
 * the real stack (MariaDB, NATS, gateway, runtime, a sandbox worker) and the SDK's own worker;
 * the probe script prints `<probe>=refused` or `<probe>=OPEN <what got through>` per line.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { networkInterfaces } from 'node:os';
import type { StackSandboxWorker } from '../support/stack';
import { useRuntimeWorld } from '../support/runtime-world';
import { runInSandbox, type SandboxRun } from '../support/sandbox-session';

const world = useRuntimeWorld();
let worker: StackSandboxWorker;
let run: SandboxRun;
let later: SandboxRun;

/** Every TCP port something listens on on this machine (the database, NATS, every health and metrics port, the gateway). */
function listeningPorts(): number[] {
  const text = Bun.spawnSync(['ss', '-Hltn']).stdout.toString();
  return [...new Set(text.split('\n').flatMap((line) => /:(\d+)\s/.exec(line.split(/\s+/)[3] + ' ')?.[1] ?? []).map(Number))].sort((a, b) => a - b);
}

const hostAddresses = () =>
  Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);

function probeScript(ports: number[], gatewayPort: number, hosts: string[], paths: { checkout: string; root: string }): string {
  const others = ports.filter((p) => p !== gatewayPort);
  return String.raw`
probe() { name=$1; shift; if out=$("$@" 2>&1); then echo "$name=OPEN $(echo "$out" | head -c 200 | tr '\n' ' ')"; else echo "$name=refused"; echo "# $(echo "$out" | head -c 160 | tr '\n' ' ')"; fi; }
tcp() { timeout 3 bash -c "exec 3<>/dev/tcp/$1/$2" ; }
via_proxy() { code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 -p -x http://127.0.0.1:3128 "http://$1:$2/"); [ "$code" != 403 ] && [ "$code" != 000 ] && echo "proxy $1:$2 answered $code"; [ "$code" != 403 ] && [ "$code" != 000 ]; }
probe db_tcp tcp 127.0.0.1 3306
probe db_proxy via_proxy 127.0.0.1 3306
probe db_socket python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect('/run/mysqld/mysqld.sock'); print('connected')"
probe db_socket_var python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('/var/run/mysqld/mysqld.sock'); print('connected')"
probe nats_tcp tcp 127.0.0.1 4222
probe nats_proxy via_proxy 127.0.0.1 4222
probe nats_login sh -c 'cat /proc/*/environ 2>/dev/null | tr "\0" "\n" | grep -E "^(NATS_|MYSQL_|MODEL_API_KEY|API_KEY|.*MASTER)"'
for port in ${others.join(' ')}; do probe "port_$port" tcp 127.0.0.1 $port; probe "port_proxy_$port" via_proxy 127.0.0.1 $port; done
for host in ${hosts.join(' ')}; do for port in ${others.join(' ')}; do probe "host_$host:$port" via_proxy $host $port; done; done
probe metadata via_proxy 169.254.169.254 80
probe proc_others sh -c 'for p in /proc/[0-9]*; do tr "\0" " " < $p/cmdline 2>/dev/null; echo; done | grep -E "[m]ariadbd|[n]ats-server|[b]un test|[b]un .*main.ts"'
probe proc_count sh -c '[ $(ls -d /proc/[0-9]* | wc -l) -gt 20 ] && ls -d /proc/[0-9]*'
probe signal_worker kill -0 ${process.pid}
probe proc_worker ls /proc/${process.pid}/environ
probe ptrace_init python3 -c "import ctypes; l=ctypes.CDLL(None); r=l.ptrace(16, ${process.pid}, 0, 0); print(r); exit(0 if r==0 else 1)"
probe checkout ls ${paths.checkout}
probe checkout_data ls ${paths.checkout}/.data ${paths.checkout}/package.json
probe sandbox_root ls ${paths.root}
probe code_dir_write touch /opt/agent/x
probe program_write sh -c 'echo x >> /opt/agent/session-program.js'
probe root_write touch /intruder
probe usr_write touch /usr/local/bin/x
probe root_home ls /root
probe home ls /home
probe var ls /var/lib/mysql
probe is_root sh -c '[ "$(id -u)" = 0 ] && id'
probe caps sh -c 'grep CapEff /proc/self/status | grep -v 0000000000000000'
probe no_new_privs sh -c 'grep NoNewPrivs /proc/self/status | grep -v 1'
probe su su -c id root
probe setuid_copy sh -c 'cp /bin/sh /tmp/sh && chmod u+s /tmp/sh && /tmp/sh -p -c "[ \$(id -u) = 0 ] && id"'
probe user_ns unshare -U true
probe user_ns_root unshare -r id
probe mount mount -t tmpfs none /tmp
probe useradd useradd intruder
probe passwd_write sh -c 'echo intruder:x:0:0::/:/bin/sh >> /etc/passwd'
probe memory_4g python3 -c "b = b'x' * (4 * 1024**3); print('allocated 4 GiB')"
probe procs_300 python3 -c "
import subprocess
started = []
try:
    for i in range(300): started.append(subprocess.Popen(['sleep', '60']))
except OSError as e: print('refused after', len(started), e)
for p in started: p.kill()
exit(0 if len(started) >= 300 else 1)"
probe disk_2g sh -c 'dd if=/dev/zero of=/workspace/big bs=1M count=2048 2>&1 | tail -1; s=$(stat -c %s /workspace/big); rm -f /workspace/big; [ "$s" -ge 2147483648 ]'
for tool in git curl python3 node bun rg jq; do command -v $tool >/dev/null && echo "tool_$tool=present" || echo "tool_$tool=missing"; done
echo marker-from-the-first-session > /workspace/secret-a; echo marker > /tmp/secret-a
(setsid sleep 3051 </dev/null >/dev/null 2>&1 &)
echo probes-done`;
}

beforeAll(async () => {
  worker = await world.stack.startSandboxWorker({ SANDBOX_IDLE_MS: '300' });
  const gatewayPort = Number(new URL(world.stack.url).port);
  run = await runInSandbox(world, probeScript(listeningPorts(), gatewayPort, hostAddresses(), { checkout: process.cwd(), root: worker.root }));
  later = await runInSandbox(world, 'ls -la /workspace /tmp; grep -rl marker-from-the-first-session / --exclude-dir=proc --exclude-dir=sys 2>/dev/null; echo listed');
}, 240_000);

const verdicts = () => Object.fromEntries(run.output.split('\n').filter((l) => !l.startsWith('#') && l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));

describe('from inside a cloud session', () => {
  test('the probe script ran to its end in the sandbox', () => {
    expect(run.isError).toBe(false);
    expect(run.output).toContain('probes-done');
  });

  const groups: Array<[string, RegExp]> = [
    ['the database over TCP, through the proxy and its socket', /^db_/],
    ['NATS, and any login to it (no service credentials in any process it can see)', /^nats_/],
    ['every port listening on this machine but the gateway, directly and through the proxy, on loopback and on the machine\'s own addresses', /^(port_|host_)/],
    ['the cloud metadata address', /^metadata$/],
    ["other processes' /proc (cmdline, environ), signals and ptrace", /^(proc_|signal_|ptrace_)/],
    ['the checkout and its data, the sandboxes directory, /root, /home, /var', /^(checkout|sandbox_root|root_home|home|var)/],
    ['writing the code directory and the system', /^(code_dir_write|program_write|root_write|usr_write|passwd_write)$/],
    ['root, capabilities, setuid, new user namespaces, mount, user creation', /^(is_root|caps|no_new_privs|su|setuid_copy|user_ns|user_ns_root|mount|useradd)$/],
    ['4 GiB of memory', /^memory_4g$/],
    ['300 processes', /^procs_300$/],
    ['2 GiB written to its work directory', /^disk_2g$/],
  ];
  for (const [what, names] of groups) {
    test(`refuses ${what}`, () => {
      const probed = Object.entries(verdicts()).filter(([name]) => names.test(name));
      expect(probed.length).toBeGreaterThan(0);
      expect(probed.filter(([, verdict]) => verdict !== 'refused')).toEqual([]);
    });
  }

  test('the base has what agents use: git, curl, python3, node, bun, ripgrep, jq', () => {
    const tools = Object.entries(verdicts()).filter(([name]) => name.startsWith('tool_'));
    expect(tools).toEqual(['git', 'curl', 'python3', 'node', 'bun', 'rg', 'jq'].map((tool) => [`tool_${tool}`, 'present']));
  });

  test("another session sees nothing of this one's files", () => {
    expect(later.output).toContain('listed');
    expect(later.output).not.toContain('secret-a');
    expect(later.output).not.toContain('marker-from-the-first-session');
  });

  test('nothing the session started outlives it', () => {
    expect(Bun.spawnSync(['pgrep', '-f', 'sleep 3051']).stdout.toString().trim()).toBe('');
  });
});
