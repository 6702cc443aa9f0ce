import { chmod, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BusClient } from '@shared/bus/bus-client';
import { systemContext } from '@shared/bus/call-context';
import { fileSubjects } from '@shared/bus/subjects/catalog';
import { newId } from '@shared/ids/ids';
import type { ClaimedWork } from '@shared/schema/sandbox-policy';
import { CLONE_DIR, cloneCommand, cloneEnvironment, cloneFailure, type CloneErrorType, type Repository } from '../domain/repository-clone';
import { normalHost } from '../domain/egress-rules';
import { INSIDE, insidePath, PROXY_PORT, proxyEnvironment } from '../domain/sandbox-layout';
import { startSandbox, type SandboxHost } from './sandbox';
import { tail } from './session-process';

/**
 * What a session mounts, put in place in its sandbox's host directory before it starts: each
 * file resource (read with the item's tenant from the catalog) read-only at its mount path, each
 * repository cloned (clients: a git in a sandbox of its own, domain/repository-clone.ts) and
 * bound writable at its mount path, owned by the session's uid. A repository that cannot be
 * cloned is reported as the SDK's session.error for it and left out: the session runs without it.
 */
/** A file that could not be read: the session cannot start as asked. */
export class MountFailure extends Error {}

/** A repository that could not be cloned: reported, and the session runs on without it (the SDK's semantics). */
class CloneFailure extends Error {
  constructor(
    message: string,
    readonly type: CloneErrorType,
  ) {
    super(message);
  }
}

export type RepositoryErrorReport = (error: { type: CloneErrorType; message: string; repository_url: string }) => Promise<unknown>;

const CLONE_OUTPUT_BYTES = 2000;
const CLONE_TIMEOUT_MS = 10 * 60_000;

export function sessionMountPreparation(host: SandboxHost, bus: Pick<BusClient, 'call'>, claimed: ClaimedWork, program: { program: string; bun: string }, report: RepositoryErrorReport) {
  return async (dir: string, uid: number | undefined) => {
    const readOnly: { host: string; inside: string }[] = [];
    const writable: { host: string; inside: string }[] = [];
    const ctx = systemContext(newId('request'), { ...claimed.owner, scope: 'read_only', key_id: 'sandbox-worker' });
    for (const file of claimed.mounts.files) {
      const content = await bus.call(fileSubjects.download, ctx, { file_id: file.file_id }).catch((err: Error) => {
        throw new MountFailure(`file ${file.file_id} could not be read: ${err.message}`);
      });
      const path = join(dir, `file-${file.resource_id}`);
      await writeFile(path, Buffer.from(content.content_base64, 'base64'), { mode: 0o444 });
      readOnly.push({ host: path, inside: file.mount_path });
    }
    for (const repository of claimed.mounts.repositories) {
      const path = join(dir, `repository-${repository.resource_id}`);
      try {
        await cloneRepository(host, repository, path, program);
      } catch (err) {
        if (!(err instanceof CloneFailure)) throw err;
        await report({ type: err.type, message: err.message, repository_url: repository.url });
        continue;
      }
      if (uid !== undefined) Bun.spawnSync(['chown', '-R', `${uid}:${uid}`, path]);
      writable.push({ host: path, inside: repository.mount_path });
    }
    return { readOnly, writable };
  };
}

/**
 * Clones into a directory of its own under the worker's root (the clone runs as a uid of its own,
 * which cannot enter the session's directory), then moves it to `path`.
 */
async function cloneRepository(host: SandboxHost, repository: Repository, path: string, program: { program: string; bun: string }): Promise<void> {
  if (repository.authorization_token === null) throw new CloneFailure(cloneFailure('', repository).message, 'repository_authentication_error');
  const scratch = await mkdtemp(join(host.root, 'clone-'));
  try {
    // Writable by the clone's uid, leased when its sandbox starts; nothing but the worker reaches under its root.
    await chmod(scratch, 0o777);
    await runClone(host, repository, scratch, program);
    await chmod(scratch, 0o700);
    await rename(scratch, path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function runClone(host: SandboxHost, repository: Repository, path: string, program: { program: string; bun: string }): Promise<void> {
  const repoHost = normalHost(new URL(repository.url).hostname);
  const box = await startSandbox(host, {
    scope: { networking: { type: 'limited', allowed_hosts: [repoHost], allow_package_managers: false, allow_mcp_servers: false }, mcpHosts: [] },
    env: { ...proxyEnvironment(), ...cloneEnvironment(repository.authorization_token), PATH: insidePath([]), HOME: INSIDE.tmp, LANG: 'C.UTF-8' },
    command: [INSIDE.bun, INSIDE.program, '--proxy-port', String(PROXY_PORT), '--exec', '--', ...cloneCommand(repository)],
    readOnly: [{ host: program.bun, inside: INSIDE.bun }, { host: program.program, inside: INSIDE.program }],
    writable: [{ host: path, inside: CLONE_DIR }],
  });
  try {
    const output = tail(box.process.stderr, CLONE_OUTPUT_BYTES);
    const timer = setTimeout(() => box.process.kill('SIGKILL'), CLONE_TIMEOUT_MS);
    const code = await box.process.exited;
    clearTimeout(timer);
    if (code !== 0) {
      const failure = cloneFailure(await output, repository);
      throw new CloneFailure(failure.message, failure.type);
    }
  } finally {
    await box.close();
  }
}
