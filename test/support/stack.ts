import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { keyValueBucketName } from '@shared/bus/key-value-buckets';
import { deleteStreams } from '@shared/bus/streams';
import { dropDatabase } from '@shared/db/connect';
import { randomBase62 } from '@shared/ids/ids';
import type { ServiceHost } from '@shared/service-host/service-host';
import { bucketName } from '@shared/service-host/service-host';
import { systemClock, type Clock } from '@shared/time/clock';
import { loadCatalogConfig } from '../../services/catalog/src/config';
import { startCatalog } from '../../services/catalog/src/start-catalog';
import { loadDeploymentsConfig } from '../../services/deployments/src/config';
import { startDeployments } from '../../services/deployments/src/start-deployments';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { startGateway, type RunningGateway } from '../../services/gateway/src/start-gateway';
import { loadSchedulerConfig } from '../../services/scheduler/src/config';
import { startScheduler } from '../../services/scheduler/src/start-scheduler';
import { loadRuntimeConfig } from '../../services/runtime/src/config';
import { startRuntime } from '../../services/runtime/src/start-runtime';
import { loadSandboxWorkerConfig } from '../../services/sandbox-worker/src/config';
import { startSandboxWorker, type RunningSandboxWorker } from '../../services/sandbox-worker/src/start-sandbox-worker';
import { loadVaultsConfig } from '../../services/vaults/src/config';
import { startVaults } from '../../services/vaults/src/start-vaults';
import { infrastructure } from './infrastructure';

/** What a stack starts unless told otherwise. The runtime is started only by tests that run sessions (it would drive every session of every other test). */
export const BACKEND_SERVICES = ['catalog', 'deployments', 'vaults', 'scheduler'] as const;
export const ALL_BACKEND_SERVICES = [...BACKEND_SERVICES, 'runtime'] as const;
export type BackendService = (typeof ALL_BACKEND_SERVICES)[number];

const starters = {
  catalog: (env: Env, clock: Clock) => startCatalog(loadCatalogConfig(env), { clock }),
  deployments: (env: Env, clock: Clock) => startDeployments(loadDeploymentsConfig(env), { clock }),
  vaults: (env: Env, clock: Clock) => startVaults(loadVaultsConfig(env), { clock }),
  scheduler: (env: Env, clock: Clock) => startScheduler(loadSchedulerConfig(env), { clock }),
  runtime: (env: Env, clock: Clock) => startRuntime(loadRuntimeConfig(env), { clock }),
} satisfies Record<BackendService, (env: Env, clock: Clock) => Promise<ServiceHost>>;

type Env = Record<string, string | undefined>;

/** A sandbox worker of the stack, and the directory its sessions' scratch directories are made in. */
export type StackSandboxWorker = RunningSandboxWorker & { root: string };

export interface StackOptions {
  clock?: Clock;
  /** Backend services to start (default: all). The gateway always starts. */
  services?: readonly BackendService[];
  /** Extra environment for every service (e.g. LOG_LEVEL). */
  env?: Env;
  /** Extra environment for one service (e.g. its own NATS_USER / NATS_PASSWORD). */
  serviceEnv?: Partial<Record<BackendService | 'gateway' | 'sandbox-worker', Env>>;
  /** Credentials stop() uses to delete the stack's streams on a NATS that requires them. */
  natsAdmin?: { user: string; pass: string };
}

/**
 * The whole product in this process, against real MariaDB and NATS, isolated from every other
 * stack by its own databases and its own bus prefix, so test files never see each other's data.
 */
export class Stack {
  readonly services = new Map<BackendService, ServiceHost>();
  readonly sandboxWorkers: StackSandboxWorker[] = [];
  gateway!: RunningGateway;

  private constructor(
    readonly id: string,
    readonly clock: Clock,
    private readonly baseEnv: Env,
    private readonly options: StackOptions = {},
  ) {}

  static async start(options: StackOptions = {}): Promise<Stack> {
    const infra = await infrastructure();
    const id = randomBase62(10).toLowerCase();
    const stack = new Stack(id, options.clock ?? systemClock, {
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      MYSQL_URL: infra.mysqlUrl,
      NATS_URL: infra.natsUrl,
      BUS_PREFIX: `t${id}`,
      BUS_TIMEOUT_MS: '5000',
      HEALTH_PORT: '0',
      MYSQL_POOL_SIZE: '5',
      ...options.env,
    }, options);
    for (const name of options.services ?? BACKEND_SERVICES) await stack.startService(name);
    stack.gateway = await startGateway(loadGatewayConfig({ ...stack.env('gateway'), PORT: '0' }), { clock: stack.clock });
    return stack;
  }

  env(service: BackendService | 'gateway' | 'sandbox-worker'): Env {
    return { ...this.baseEnv, DATABASE_NAME: `t_${this.id}_${service}`, ...this.options.serviceEnv?.[service] };
  }

  get url(): string {
    return this.gateway.url;
  }

  async startService(name: BackendService): Promise<ServiceHost> {
    const runtime = await starters[name](this.env(name), this.clock);
    // Subscriptions are registered asynchronously; a round trip guarantees the server has them
    // before a test's next request, which would otherwise find no responders.
    await runtime.nc.flush();
    this.services.set(name, runtime);
    return runtime;
  }

  async stopService(name: BackendService): Promise<void> {
    await this.services.get(name)?.stop();
    this.services.delete(name);
  }

  /**
   * A sandbox worker (cloud environments' sessions), pointed at the stack's gateway, with its
   * sessions' directories under a fresh directory of its own. Needs the runtime to claim from.
   */
  async startSandboxWorker(env: Env = {}): Promise<StackSandboxWorker> {
    const root = await mkdtemp(join(tmpdir(), 'stack-sandboxes-'));
    const worker = await startSandboxWorker(
      loadSandboxWorkerConfig({ ...this.env('sandbox-worker'), SANDBOX_GATEWAY_URL: this.url, SANDBOX_ROOT: root, ...env }),
    );
    const started = Object.assign(worker, { root });
    this.sandboxWorkers.push(started);
    return started;
  }

  service(name: BackendService): ServiceHost {
    const runtime = this.services.get(name);
    if (!runtime) throw new Error(`${name} is not running in this stack`);
    return runtime;
  }

  async createKey(options: { org?: string; workspace?: string; scope?: 'read_write' | 'read_only' } = {}) {
    return this.gateway.keys.create({
      organizationId: options.org ?? `org_${randomBase62(8)}`,
      workspaceId: options.workspace ?? `wrkspc_${randomBase62(8)}`,
      scope: options.scope ?? 'read_write',
    });
  }

  async stop(): Promise<void> {
    // Before the gateway: their sessions' processes talk to it until they end.
    for (const worker of this.sandboxWorkers.splice(0)) {
      await worker.stop();
      await rm(worker.root, { recursive: true, force: true });
    }
    await this.gateway?.stop();
    for (const name of [...this.services.keys()]) await this.stopService(name);
    const settings = { MYSQL_URL: this.baseEnv.MYSQL_URL!, MYSQL_POOL_SIZE: 1 };
    for (const service of [...ALL_BACKEND_SERVICES, 'gateway'] as const) {
      await dropDatabase(settings, `t_${this.id}_${service}`).catch(() => undefined);
    }
    const nc = await connect({ servers: this.baseEnv.NATS_URL!, ...this.options.natsAdmin });
    try {
      await deleteStreams(nc, this.baseEnv.BUS_PREFIX!);
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(`OBJ_${bucketName(this.baseEnv.BUS_PREFIX!)}`).catch(() => undefined);
      await jsm.streams.delete(`KV_${keyValueBucketName(this.baseEnv.BUS_PREFIX!, 'rateLimits')}`).catch(() => undefined);
    } finally {
      await nc.close();
    }
  }
}
