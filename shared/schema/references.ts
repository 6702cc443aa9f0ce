import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable } from './common';
import { Model } from './model';

/**
 * Cross-service reference checks. A deployment refers to catalog resources and vaults it does
 * not own; it asks their owners, in one request each, whether they exist in the caller's tenant
 * (the tenant travels in the call context) and can be used.
 */
export const ReferenceState = Type.Union([Type.Literal('ok'), Type.Literal('not_found'), Type.Literal('archived')]);
export type ReferenceState = Static<typeof ReferenceState>;

const Checked = Closed({ id: Type.String(), state: ReferenceState });
/** A memory store also says what a session snapshots of it when it attaches the store. */
const CheckedMemoryStore = Closed({
  id: Type.String(),
  state: ReferenceState,
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});
export type CheckedMemoryStore = Static<typeof CheckedMemoryStore>;

export const ResolveReferencesRequest = Closed({
  /** `version: null` resolves the latest version. */
  agent: Nullable(Closed({ id: IdOf('agent'), version: Nullable(Type.Integer()) })),
  environment_id: Nullable(IdOf('environment')),
  file_ids: Type.Array(IdOf('file')),
  memory_store_ids: Type.Array(IdOf('memoryStore')),
});
export type ResolveReferencesRequest = Static<typeof ResolveReferencesRequest>;

export const ResolveReferencesReply = Closed({
  /** `version` and `model` are set when the agent (version) exists, archived or not. */
  agent: Nullable(
    Closed({ id: Type.String(), state: ReferenceState, version: Nullable(Type.Integer()), model: Nullable(Model) }),
  ),
  environment: Nullable(Checked),
  files: Type.Array(Checked),
  memory_stores: Type.Array(CheckedMemoryStore),
});
export type ResolveReferencesReply = Static<typeof ResolveReferencesReply>;

export const CheckVaultsRequest = Closed({ vault_ids: Type.Array(IdOf('vault')) });
export const CheckVaultsReply = Closed({ vaults: Type.Array(Checked) });
export type CheckVaultsReply = Static<typeof CheckVaultsReply>;
