import { Type, type Static } from '@sinclair/typebox';
import { IdOf, Nullable } from './common';
import { Model } from './model';

/**
 * Cross-service reference checks. A deployment refers to catalog resources and vaults it does
 * not own; it asks their owners, in one request each, whether they exist in the caller's tenant
 * (the tenant travels in the call context) and can be used.
 */
export const ReferenceState = Type.Union([Type.Literal('ok'), Type.Literal('not_found'), Type.Literal('archived')]);
export type ReferenceState = Static<typeof ReferenceState>;

const Checked = Type.Object({ id: Type.String(), state: ReferenceState }, { additionalProperties: false });

export const ResolveReferencesRequest = Type.Object(
  {
    /** `version: null` resolves the latest version. */
    agent: Nullable(Type.Object({ id: IdOf('agent'), version: Nullable(Type.Integer()) }, { additionalProperties: false })),
    environment_id: Nullable(IdOf('environment')),
    file_ids: Type.Array(IdOf('file')),
    memory_store_ids: Type.Array(IdOf('memoryStore')),
  },
  { additionalProperties: false },
);
export type ResolveReferencesRequest = Static<typeof ResolveReferencesRequest>;

export const ResolveReferencesReply = Type.Object(
  {
    /** `version` and `model` are set when the agent (version) exists, archived or not. */
    agent: Nullable(
      Type.Object(
        { id: Type.String(), state: ReferenceState, version: Nullable(Type.Integer()), model: Nullable(Model) },
        { additionalProperties: false },
      ),
    ),
    environment: Nullable(Checked),
    files: Type.Array(Checked),
    memory_stores: Type.Array(Checked),
  },
  { additionalProperties: false },
);
export type ResolveReferencesReply = Static<typeof ResolveReferencesReply>;

export const CheckVaultsRequest = Type.Object({ vault_ids: Type.Array(IdOf('vault')) }, { additionalProperties: false });
export const CheckVaultsReply = Type.Object({ vaults: Type.Array(Checked) }, { additionalProperties: false });
export type CheckVaultsReply = Static<typeof CheckVaultsReply>;
