import { applyMetadataPatch } from '@shared/metadata/apply-metadata-patch';
import type { CloudConfig, CloudConfigParams, EnvironmentCreateBody, EnvironmentUpdateBody, PackageManager } from '@shared/schema/environment';
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

/** A new environment: no description is null, no config is the default cloud config. */
export const newEnvironment = (body: EnvironmentCreateBody, columns: NewRowColumns): EnvironmentRow => ({
  ...columns,
  name: body.name,
  description: body.description ?? null,
  config: normalizeCloudConfig(body.config),
  metadata: body.metadata ?? {},
});

/**
 * Patch semantics: omitted or null name is kept, null description clears, config is replaced
 * whole, metadata is patched. An archived environment is frozen.
 */
export function applyEnvironmentUpdate(current: EnvironmentRow, patch: EnvironmentUpdateBody, now: Date): EnvironmentRow {
  refuseArchived('environment', current);
  return {
    ...current,
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description,
    config: patch.config === undefined ? current.config : normalizeCloudConfig(patch.config),
    metadata: applyMetadataPatch(current.metadata, patch.metadata),
    updatedAt: now,
  };
}
