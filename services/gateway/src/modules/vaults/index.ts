import { Elysia } from 'elysia';
import { vaultCredentialSubjects, vaultSubjects } from '@shared/bus/subjects/vaults';
import { VaultCreateRequest, VaultUpdateRequest } from '@shared/schema/vault';
import { CredentialCreateRequest, CredentialUpdateRequest } from '@shared/schema/vault-credential';
import { emptyBody, jsonBody } from '../../http/raw-body';
import type { GatewayDeps } from '../../routing/gateway-deps';
import { createGuard } from '../../routing/guard';
import { checkPathIds } from '../../routing/path-id';
import { servePage } from '../../routing/pagination';
import { credentialListRoute, vaultListRoute } from './model';

/**
 * /v1/vaults and their credentials, served by the vaults service. Secrets pass through here
 * once, inbound, and are never read back: no route returns them and nothing here logs a body.
 */
export const vaultsModule = (deps: GatewayDeps) => {
  const paging = { bus: deps.bus, cursorKey: deps.config.cursorKey };
  return new Elysia({ name: 'module-vaults' })
    .use(createGuard(deps))
    .onBeforeHandle(checkPathIds)
    .post('/v1/vaults', ({ call, body }) => deps.bus.call(vaultSubjects.create, call, jsonBody(VaultCreateRequest, body)))
    .get('/v1/vaults', ({ call, url }) => servePage(vaultListRoute, paging, call, url))
    .get('/v1/vaults/:vault_id', ({ call, params }) => deps.bus.call(vaultSubjects.get, call, { vault_id: params.vault_id }))
    .post('/v1/vaults/:vault_id', ({ call, params, body }) =>
      deps.bus.call(vaultSubjects.update, call, { vault_id: params.vault_id, update: jsonBody(VaultUpdateRequest, body) }),
    )
    .post('/v1/vaults/:vault_id/archive', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(vaultSubjects.archive, call, { vault_id: params.vault_id });
    })
    .delete('/v1/vaults/:vault_id', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(vaultSubjects.delete, call, { vault_id: params.vault_id });
    })
    .post('/v1/vaults/:vault_id/credentials', ({ call, params, body }) =>
      deps.bus.call(vaultCredentialSubjects.create, call, {
        vault_id: params.vault_id,
        credential: jsonBody(CredentialCreateRequest, body),
      }),
    )
    .get('/v1/vaults/:vault_id/credentials', ({ call, params, url }) =>
      servePage(credentialListRoute(params.vault_id), paging, call, url),
    )
    .get('/v1/vaults/:vault_id/credentials/:credential_id', ({ call, params }) =>
      deps.bus.call(vaultCredentialSubjects.get, call, params),
    )
    .post('/v1/vaults/:vault_id/credentials/:credential_id', ({ call, params, body }) =>
      deps.bus.call(vaultCredentialSubjects.update, call, { ...params, update: jsonBody(CredentialUpdateRequest, body) }),
    )
    .post('/v1/vaults/:vault_id/credentials/:credential_id/archive', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(vaultCredentialSubjects.archive, call, params);
    })
    .delete('/v1/vaults/:vault_id/credentials/:credential_id', ({ call, params, body }) => {
      emptyBody(body);
      return deps.bus.call(vaultCredentialSubjects.delete, call, params);
    });
};
