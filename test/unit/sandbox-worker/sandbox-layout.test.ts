import { expect, test } from 'bun:test';
import { bubblewrapArgs, INSIDE } from '../../../services/sandbox-worker/src/domain/sandbox-layout';
import { sandboxCommand } from '../../../services/sandbox-worker/src/clients/bubblewrap';

const layout = {
  system: [{ path: '/bin', kind: 'symlink' as const, target: 'usr/bin' }, { path: '/lib64', kind: 'dir' as const }],
  diskBytes: 1024,
  readOnly: [{ host: '/srv/program.js', inside: INSIDE.program }],
  writable: [{ host: '/srv/s/egress.sock', inside: INSIDE.egressSocket }],
  env: { HOME: '/workspace' },
  command: ['/opt/agent/bin/bun', '/opt/agent/session-program.js'],
};

test('namespaces of its own, no capabilities, no user namespaces inside, a read-only root with sized tmpfs work directories', () => {
  const args = bubblewrapArgs(layout);
  for (const flag of ['--unshare-user', '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--disable-userns', '--die-with-parent', '--new-session', '--clearenv']) expect(args).toContain(flag);
  expect(args.join(' ')).toContain('--cap-drop ALL');
  expect(args.join(' ')).toContain('--ro-bind /usr /usr --ro-bind /etc /etc --symlink usr/bin /bin --ro-bind /lib64 /lib64');
  for (const dir of ['/tmp', '/workspace', '/mnt/session', '/mnt/memory']) expect(args.join(' ')).toContain(`--size 1024 --perms 0700 --tmpfs ${dir}`);
  expect(args.join(' ')).toContain('--ro-bind /srv/program.js /opt/agent/session-program.js --bind /srv/s/egress.sock /run/sandbox/egress.sock --remount-ro / --chdir /workspace --clearenv --setenv HOME /workspace -- /opt/agent/bin/bun');
  // Nothing of the product is bound in but what the layout names.
  expect(args.filter((a) => a.startsWith('/work/') || a === '/work' || a === '/root' || a === '/home' || a === '/var')).toEqual([]);
});

test('as root: control groups joined first, then the limits, then the uid dropped, then bwrap', () => {
  const command = sandboxCommand({ bwrap: 'bwrap', layout, uid: 200123, pids: 64, cgroup: { procsFiles: ['/cg/memory/x/cgroup.procs', '/cg/pids/x/cgroup.procs'], remove: async () => {} } });
  expect(command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
  expect(command.slice(4, 7)).toEqual(['/cg/memory/x/cgroup.procs', '/cg/pids/x/cgroup.procs', '--']);
  expect(command.slice(7, 15)).toEqual(['prlimit', '--nproc=64:64', '--fsize=1024:1024', '--', 'setpriv', '--reuid=200123', '--regid=200123', '--clear-groups']);
  expect(command[16]).toBe('bwrap');
  expect(sandboxCommand({ bwrap: '/usr/bin/bwrap', layout, pids: 64 })[0]).toBe('/usr/bin/bwrap');
});
