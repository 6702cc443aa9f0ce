import type { CloudConfig, CloudConfigParams, PackageManager } from '@shared/schema/environment';
import { PACKAGE_MANAGERS } from '@shared/schema/environment';

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
