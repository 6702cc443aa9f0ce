import { invalidRequest, withErrorCode } from '@shared/errors/api-error';
import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type {
  CloudConfig,
  CloudConfigParams,
  EnvironmentConfig,
  EnvironmentConfigParams,
  EnvironmentCreateBody,
  EnvironmentUpdateBody,
  PackageManager,
} from '@shared/schema/environment';
import { PACKAGE_MANAGERS } from '@shared/schema/environment';
import type { EnvironmentRow } from '../db/schema';
import type { NewRowColumns } from '@shared/db/columns';
import { refuseArchived } from './owned-row';

/** The stored (and shown) form of a cloud config: every default filled in. */
export function normalizeCloudConfig(params: CloudConfigParams | null | undefined): CloudConfig {
  const networking = params?.networking;
  const packages = params?.packages;
  return {
    type: 'cloud',
    networking:
      !networking || networking.type === 'unrestricted'
        ? { type: 'unrestricted' }
        : {
            type: 'limited',
            allow_mcp_servers: networking.allow_mcp_servers ?? false,
            allow_package_managers: networking.allow_package_managers ?? false,
            allowed_hosts: networking.allowed_hosts ?? [],
          },
    packages: {
      type: 'packages',
      ...(Object.fromEntries(PACKAGE_MANAGERS.map((m) => [m, packages?.[m] ?? []])) as Record<PackageManager, string[]>),
    },
  };
}

/** The stored (and shown) form of any config: `self_hosted` has nothing to fill in; none is the default cloud config. */
export const normalizeConfig = (params: EnvironmentConfigParams | null | undefined): EnvironmentConfig =>
  params?.type === 'self_hosted' ? { type: 'self_hosted' } : normalizeCloudConfig(params);

/** A new environment: no description is null, no config is the default cloud config. */
export const newEnvironment = (body: EnvironmentCreateBody, columns: NewRowColumns): EnvironmentRow => ({
  ...columns,
  name: body.name,
  description: body.description ?? null,
  config: normalizeConfig(body.config),
  metadata: body.metadata ?? {},
});

/**
 * Patch semantics: omitted or null name is kept, null description clears, config is replaced
 * whole (null is the default cloud config, as on create), metadata is patched. The config's type
 * is fixed at creation (SDK 1.x: `invalid_config_type_change`): a session's work goes to the pool
 * its environment's type names, so switching it would strand queued work. An archived environment
 * is frozen.
 */
export function applyEnvironmentUpdate(current: EnvironmentRow, patch: EnvironmentUpdateBody, now: Date): EnvironmentRow {
  refuseArchived('environment', current, 'environment_archived');
  const config = patch.config === undefined ? current.config : normalizeConfig(patch.config);
  if (config.type !== current.config.type) {
    throw withErrorCode(
      invalidRequest(`config.type: is ${current.config.type} and cannot change after creation (create another environment)`),
      'invalid_config_type_change',
    );
  }
  return {
    ...current,
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description,
    config,
    metadata: applyMetadataPatch(current.metadata, patch.metadata),
    updatedAt: now,
  };
}
