import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../errors/api-error';
import { Tenant } from '../schema/tenant';

/** What travels with every request besides its body: who asks, and the request id to log. */
export const CallContext = Type.Object({
  request_id: Type.String(),
  tenant: Type.Union([Tenant, Type.Null()]),
});
export type CallContext = Static<typeof CallContext>;

const H = {
  requestId: 'request-id',
  org: 'tenant-organization',
  workspace: 'tenant-workspace',
  scope: 'tenant-scope',
  key: 'tenant-key',
  session: 'tenant-session',
} as const;

export function contextToHeaders(ctx: CallContext, into: MsgHdrs = natsHeaders()): MsgHdrs {
  into.set(H.requestId, ctx.request_id);
  if (ctx.tenant) {
    into.set(H.org, ctx.tenant.organization_id);
    into.set(H.workspace, ctx.tenant.workspace_id);
    into.set(H.scope, ctx.tenant.scope);
    into.set(H.key, ctx.tenant.key_id);
    if (ctx.tenant.session_id) into.set(H.session, ctx.tenant.session_id);
  }
  return into;
}

export function contextFromHeaders(h: MsgHdrs | undefined): CallContext {
  const org = h?.get(H.org);
  const scope = h?.get(H.scope);
  const session = h?.get(H.session);
  return {
    request_id: h?.get(H.requestId) || 'req_unknown',
    tenant: org
      ? {
          organization_id: org,
          workspace_id: h?.get(H.workspace) ?? '',
          scope: scope === 'read_only' ? 'read_only' : 'read_write',
          key_id: h?.get(H.key) ?? '',
          ...(session ? { session_id: session } : {}),
        }
      : null,
  };
}

/** A context for work the system starts itself (scheduler fires, relays). */
export function systemContext(requestId: string, tenant: CallContext['tenant'] = null): CallContext {
  return { request_id: requestId, tenant };
}

/**
 * The tenant a call acts for. The gateway sets it on every public call and services on the
 * calls they make for a tenant, so a call without one is a bug on our side, never the caller's:
 * 500 api_error, logged with its cause.
 */
export function tenantOf(ctx: CallContext): Tenant {
  if (!ctx.tenant) throw new ApiError('api_error', undefined, { cause: new Error(`call ${ctx.request_id} carries no tenant`) });
  return ctx.tenant;
}
