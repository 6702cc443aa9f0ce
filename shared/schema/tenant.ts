import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './common';

export const KeyScope = Type.Union([Type.Literal('read_write'), Type.Literal('read_only')]);
export type KeyScope = Static<typeof KeyScope>;

/** Who is calling: travels with every bus request so each service scopes its queries. */
export const Tenant = Closed({
  organization_id: Type.String({ minLength: 1 }),
  workspace_id: Type.String({ minLength: 1 }),
  scope: KeyScope,
  key_id: Type.String({ minLength: 1 }),
  /** Set when a work item's sessions token calls: the one session it speaks for (what it writes is that session's). */
  session_id: Type.Optional(Type.String({ minLength: 1 })),
});
export type Tenant = Static<typeof Tenant>;

/** The part of the tenant that owns rows, events and lanes: what storing code and the bulkhead key on. */
export type TenantIds = Pick<Tenant, 'organization_id' | 'workspace_id'>;
