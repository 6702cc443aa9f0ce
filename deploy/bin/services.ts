/** The six services, their entry points and migrations: what `dev` runs and `migrate` applies. */
export const SERVICES = ['catalog', 'vaults', 'deployments', 'scheduler', 'runtime', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const entryPoint = (service: ServiceName) => `services/${service}/src/main.ts`;

/**
 * Bun flags a service's process needs. The gateway raises Bun's header parser limit (16 KiB by
 * default, answered with a bare 431) so its own MAX_HEADER_BYTES check answers with the envelope.
 * Keep deploy/docker/entrypoint.sh in step.
 */
export const runtimeFlags = (service: ServiceName): string[] =>
  service === 'gateway' ? ['--max-http-header-size=65536'] : [];
export const migrationsFolder = (service: ServiceName) => `services/${service}/migrations`;
export const defaultDatabaseName = (service: ServiceName) => `agents_${service}`;
