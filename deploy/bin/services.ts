/** The five services, their entry points and migrations: what `dev` runs and `migrate` applies. */
export const SERVICES = ['catalog', 'vaults', 'deployments', 'scheduler', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const entryPoint = (service: ServiceName) => `services/${service}/src/main.ts`;
export const migrationsFolder = (service: ServiceName) => `services/${service}/migrations`;
export const defaultDatabaseName = (service: ServiceName) => `agents_${service}`;
