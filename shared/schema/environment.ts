import { Type, type Static } from '@sinclair/typebox';
import { defineEvent } from '../bus/event';
import { Closed, IdParam, ListReply, ListRequest, Metadata, MetadataPatch, Nullable, StoredMetadata } from './common';
import { ArchivableListFilters, Deleted, IdRequest, ReturnedResource, UpdateRequest } from './resource-shapes';

/**
 * The environment resource (SDK `BetaEnvironment`): where sessions run. Its config is `cloud`
 * (the product's sandbox workers) or `self_hosted` (the operator's own workers), as the SDK types it.
 */

const Hosts = Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 256 });
const PackageList = Type.Array(Type.String({ minLength: 1, maxLength: 256 }), { maxItems: 256 });

export const UnrestrictedNetwork = Closed({ type: Type.Literal('unrestricted') });
export const LimitedNetwork = Closed({
  type: Type.Literal('limited'),
  allow_mcp_servers: Type.Boolean(),
  allow_package_managers: Type.Boolean(),
  allowed_hosts: Type.Array(Type.String()),
});
const LimitedNetworkParams = Closed({
  type: Type.Literal('limited'),
  allow_mcp_servers: Type.Optional(Nullable(Type.Boolean())),
  allow_package_managers: Type.Optional(Nullable(Type.Boolean())),
  allowed_hosts: Type.Optional(Nullable(Hosts)),
});

export const PACKAGE_MANAGERS = ['apt', 'cargo', 'gem', 'go', 'npm', 'pip'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

export const Packages = Closed({
  type: Type.Literal('packages'),
  apt: Type.Array(Type.String()),
  cargo: Type.Array(Type.String()),
  gem: Type.Array(Type.String()),
  go: Type.Array(Type.String()),
  npm: Type.Array(Type.String()),
  pip: Type.Array(Type.String()),
});
const PackagesParams = Closed({
  type: Type.Optional(Type.Literal('packages')),
  apt: Type.Optional(Nullable(PackageList)),
  cargo: Type.Optional(Nullable(PackageList)),
  gem: Type.Optional(Nullable(PackageList)),
  go: Type.Optional(Nullable(PackageList)),
  npm: Type.Optional(Nullable(PackageList)),
  pip: Type.Optional(Nullable(PackageList)),
});

/** SDK `BetaCloudConfig.networking`: what a cloud session's sandbox lets out (the sandbox worker enforces it). */
export const CloudNetworking = Type.Union([UnrestrictedNetwork, LimitedNetwork]);
export type CloudNetworking = Static<typeof CloudNetworking>;
export type Packages = Static<typeof Packages>;

export const CloudConfig = Closed({ type: Type.Literal('cloud'), networking: CloudNetworking, packages: Packages });
export type CloudConfig = Static<typeof CloudConfig>;

export const CloudConfigParams = Closed({
  type: Type.Literal('cloud'),
  networking: Type.Optional(Type.Union([UnrestrictedNetwork, LimitedNetworkParams, Type.Null()])),
  packages: Type.Optional(Nullable(PackagesParams)),
});
export type CloudConfigParams = Static<typeof CloudConfigParams>;

/** SDK `BetaSelfHostedConfig`: the type is the whole config; the workers are the operator's. */
export const SelfHostedConfig = Closed({ type: Type.Literal('self_hosted') });
export type SelfHostedConfig = Static<typeof SelfHostedConfig>;

/** SDK `BetaSelfHostedConfigParams`, which declares the same single field as the response form. */
export const SelfHostedConfigParams = SelfHostedConfig;
export type SelfHostedConfigParams = Static<typeof SelfHostedConfigParams>;

/** SDK `BetaEnvironment.config`: what is stored and shown. */
export const EnvironmentConfig = Type.Union([CloudConfig, SelfHostedConfig]);
export type EnvironmentConfig = Static<typeof EnvironmentConfig>;

/**
 * SDK `EnvironmentCreateParams.config` and `EnvironmentUpdateParams.config`. One flat union, so a
 * value whose `type` names a variant is checked against that variant alone (the message names the
 * field inside it), and any other value gets this description.
 */
const ConfigParam = Type.Union([CloudConfigParams, SelfHostedConfigParams, Type.Null()], {
  description: 'must be {"type": "cloud", ...}, {"type": "self_hosted"} or null',
});
export type EnvironmentConfigParams = NonNullable<Static<typeof ConfigParam>>;

const EnvironmentName = Type.String({ minLength: 1, maxLength: 256 });
const EnvironmentDescription = Type.String({ maxLength: 2048 });

export const EnvironmentCreateBody = Closed({
  name: EnvironmentName,
  description: Type.Optional(Nullable(EnvironmentDescription)),
  config: Type.Optional(ConfigParam),
  metadata: Type.Optional(Metadata),
});
export type EnvironmentCreateBody = Static<typeof EnvironmentCreateBody>;

/** Patch: omitted fields are preserved; `config` is replaced whole, and may change its type. */
export const EnvironmentUpdateBody = Closed({
  name: Type.Optional(Nullable(EnvironmentName)),
  description: Type.Optional(Nullable(EnvironmentDescription)),
  config: Type.Optional(ConfigParam),
  metadata: Type.Optional(Nullable(MetadataPatch)),
});
export type EnvironmentUpdateBody = Static<typeof EnvironmentUpdateBody>;

export const Environment = ReturnedResource('environment', {
  name: Type.String(),
  description: Nullable(Type.String()),
  config: EnvironmentConfig,
  metadata: StoredMetadata,
});
export type Environment = Static<typeof Environment>;

export const EnvironmentDeleted = Deleted('environment_deleted');

export const EnvironmentListFilters = ArchivableListFilters();
export type EnvironmentListFilters = Static<typeof EnvironmentListFilters>;

export const EnvironmentIdRequest = IdRequest('environment_id', 'environment');
export const UpdateEnvironmentRequest = UpdateRequest('environment_id', 'environment', EnvironmentUpdateBody);
export const EnvironmentListRequest = ListRequest(EnvironmentListFilters);
export const EnvironmentListReply = ListReply(Environment);

export const EnvironmentEventPayload = Closed({ environment_id: IdParam });
export const environmentEvents = {
  archived: defineEvent('catalog', 'catalog.environment.archived', EnvironmentEventPayload),
  deleted: defineEvent('catalog', 'catalog.environment.deleted', EnvironmentEventPayload),
};
