import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { VaultCreateRequest, VaultUpdateRequest } from '@shared/schema/vault';
import { CredentialCreateRequest, CredentialUpdateRequest } from '@shared/schema/vault-credential';
import { servePage } from '../../routing/pagination';
import { resourceModule } from '../../routing/resource-module';
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
    route.get('/v1/vaults/:vault_id', { reply: vaultSubjects.get.reply }, ({ call, params }) => deps.bus.call(vaultSubjects.get, call, params)),
    route.post('/v1/vaults/:vault_id', { body: VaultUpdateRequest, reply: vaultSubjects.update.reply }, ({ call, params, body }) =>
      deps.bus.call(vaultSubjects.update, call, { vault_id: params.vault_id, update: body }),
    ),
    route.post('/v1/vaults/:vault_id/archive', { reply: vaultSubjects.archive.reply }, ({ call, params }) =>
      deps.bus.call(vaultSubjects.archive, call, params),
    ),
    route.delete('/v1/vaults/:vault_id', { reply: vaultSubjects.delete.reply }, ({ call, params }) => deps.bus.call(vaultSubjects.delete, call, params)),
    // 409: the vault already has an active credential for the same target.
    route.post(
      '/v1/vaults/:vault_id/credentials',
      { body: CredentialCreateRequest, reply: vaultCredentialSubjects.create.reply, errors: [409] },
      ({ call, params, body }) => deps.bus.call(vaultCredentialSubjects.create, call, { vault_id: params.vault_id, credential: body }),
    ),
    route.list('/v1/vaults/:vault_id/credentials', servePage(credentialListRoute, deps)),
    route.get('/v1/vaults/:vault_id/credentials/:credential_id', { reply: vaultCredentialSubjects.get.reply }, ({ call, params }) =>
      deps.bus.call(vaultCredentialSubjects.get, call, params),
    ),
    route.post(
      '/v1/vaults/:vault_id/credentials/:credential_id',
      { body: CredentialUpdateRequest, reply: vaultCredentialSubjects.update.reply },
      ({ call, params, body }) => deps.bus.call(vaultCredentialSubjects.update, call, { ...params, update: body }),
    ),
    route.post('/v1/vaults/:vault_id/credentials/:credential_id/archive', { reply: vaultCredentialSubjects.archive.reply }, ({ call, params }) =>
      deps.bus.call(vaultCredentialSubjects.archive, call, params),
    ),
    route.delete('/v1/vaults/:vault_id/credentials/:credential_id', { reply: vaultCredentialSubjects.delete.reply }, ({ call, params }) =>
      deps.bus.call(vaultCredentialSubjects.delete, call, params),
    ),
  ]);
