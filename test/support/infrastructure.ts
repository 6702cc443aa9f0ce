/**
 * Where the tests' MariaDB/MySQL and NATS come from: containers when a Docker engine answers
 * (testcontainers), else the servers named by MYSQL_URL / NATS_URL (defaults: the local ones).
 * Either way the tests talk to real servers; nothing here is a mock.
 */
export interface Infrastructure {
  mysqlUrl: string;
  natsUrl: string;
  source: 'environment' | 'testcontainers';
}

let resolved: Promise<Infrastructure> | undefined;

async function dockerReachable(): Promise<boolean> {
  if (process.env.TESTCONTAINERS_DISABLED === 'true') return false;
  const socket = process.env.DOCKER_HOST?.replace(/^unix:\/\//, '') ?? '/var/run/docker.sock';
  try {
    const response = await fetch('http://localhost/_ping', { unix: socket, signal: AbortSignal.timeout(1000) } as RequestInit);
    return response.ok;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<Infrastructure> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [mysql, nats] = await Promise.all([
    new GenericContainer('mysql:8.4')
      .withEnvironment({ MYSQL_ALLOW_EMPTY_PASSWORD: 'yes', MYSQL_ROOT_HOST: '%' })
      .withExposedPorts(3306)
      .withWaitStrategy(Wait.forLogMessage(/ready for connections.*port: 3306/))
      .start(),
    new GenericContainer('nats:2.10').withCommand(['-js']).withExposedPorts(4222).start(),
  ]);
  return {
    mysqlUrl: `mysql://root@${mysql.getHost()}:${mysql.getMappedPort(3306)}`,
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    source: 'testcontainers',
  };
}

export function infrastructure(): Promise<Infrastructure> {
  resolved ??= (async () => {
    const fromEnv = process.env.MYSQL_URL !== undefined || process.env.NATS_URL !== undefined;
    if (!fromEnv && (await dockerReachable())) return startContainers();
    return {
      mysqlUrl: process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
      natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      source: 'environment',
    };
  })();
  return resolved;
}
