/** The seven services and their entry points: what `dev` runs. */
export const SERVICES = ['catalog', 'vaults', 'deployments', 'scheduler', 'runtime', 'gateway', 'sandbox-worker'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The services that keep a database, and their migrations: what `migrate` applies (the sandbox worker keeps none). */
export const DATABASE_SERVICES = ['catalog', 'vaults', 'deployments', 'scheduler', 'runtime', 'gateway'] as const satisfies readonly ServiceName[];
export type DatabaseServiceName = (typeof DATABASE_SERVICES)[number];

export const entryPoint = (service: ServiceName) => `services/${service}/src/main.ts`;

/**
 * Bun flags a service's process needs. The gateway raises Bun's header parser limit (16 KiB by
 * default, answered with a bare 431) so its own MAX_HEADER_BYTES check answers with the envelope.
 * Keep deploy/docker/entrypoint.sh in step.
 */
export const runtimeFlags = (service: ServiceName): string[] =>
  service === 'gateway' ? ['--max-http-header-size=65536'] : [];
export const migrationsFolder = (service: DatabaseServiceName) => `services/${service}/migrations`;
export const defaultDatabaseName = (service: DatabaseServiceName) => `agents_${service}`;
