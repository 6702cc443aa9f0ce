import { mcpCredentialSubjects } from '@shared/bus/subjects/runtime';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { VaultCreateRequest, VaultUpdateRequest } from '@shared/schema/vault';
import { CredentialCreateRequest, CredentialUpdateRequest } from '@shared/schema/vault-credential';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
import { itemRoutes } from '../../routing/item-routes';
import { route } from '../../routing/route';
import type { GatewayDeps } from '../../deps';
import { credentialListRoute, vaultListRoute } from './model';

/**
 * /v1/vaults and their credentials, served by the vaults service. Secrets pass through here
 * once, inbound, and are never read back: no route returns them and nothing here logs a body.
 */
export const vaultsModule = (deps: GatewayDeps) =>
  resourceModule('vaults', deps, [
    route.post('/v1/vaults', { body: VaultCreateRequest, reply: vaultSubjects.create.reply }, ({ call, body }) => deps.bus.call(vaultSubjects.create, call, body)),
    route.list('/v1/vaults', servePage(vaultListRoute, deps)),
    ...itemRoutes(deps, '/v1/vaults/:vault_id', vaultSubjects, VaultUpdateRequest),
    // 409: the vault already has an active credential for the same target.
    route.post(
      '/v1/vaults/:vault_id/credentials',
      { body: CredentialCreateRequest, reply: vaultCredentialSubjects.create.reply, errors: [409] },
      ({ call, params, body }) => deps.bus.call(vaultCredentialSubjects.create, call, { vault_id: params.vault_id, credential: body }),
    ),
    route.list('/v1/vaults/:vault_id/credentials', servePage(credentialListRoute, deps)),
    ...itemRoutes(deps, '/v1/vaults/:vault_id/credentials/:credential_id', vaultCredentialSubjects, CredentialUpdateRequest),
    // The live probe: answered by the runtime, which holds the MCP client (and refreshes on a 401).
    route.post(
      '/v1/vaults/:vault_id/credentials/:credential_id/mcp_oauth_validate',
      { reply: mcpCredentialSubjects.validate.reply },
      ({ call, params }) => deps.bus.call(mcpCredentialSubjects.validate, call, params),
    ),
  ]);
