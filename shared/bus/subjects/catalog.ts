import {
  Agent,
  AgentCreateBody,
  AgentIdRequest,
  AgentListReply,
  AgentListRequest,
  AgentVersionListRequest,
  GetAgentRequest,
  UpdateAgentRequest,
} from '../../schema/agent';
import {
  Environment,
  EnvironmentCreateBody,
  EnvironmentDeleted,
  EnvironmentIdRequest,
  EnvironmentListReply,
  EnvironmentListRequest,
  UpdateEnvironmentRequest,
} from '../../schema/environment';
import { FileContent, FileDeleted, FileIdRequest, FileListReply, FileListRequest, FileMetadata, UploadFileRequest } from '../../schema/file';
import {
  MemoryStore,
  MemoryStoreCreateBody,
  MemoryStoreDeleted,
  MemoryStoreIdRequest,
  MemoryStoreListReply,
  MemoryStoreListRequest,
  UpdateMemoryStoreRequest,
} from '../../schema/memory-store';
import { Model, ModelIdRequest, ModelListQuery, ModelPage } from '../../schema/model';
import { ResolveReferencesReply, ResolveReferencesRequest } from '../../schema/references';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'catalog';

/**
 * The catalog's operations, one map per resource, keyed by verb: the NATS subject is
 * `catalog.<resource>.<verb>`. Every resource call is scoped to the tenant in the call context.
 */
export const modelSubjects = defineSubjects(SERVICE, 'models', {
  list: [ModelListQuery, ModelPage],
  /** The runtime too: a model's list price, which a session's usage is costed at. */
  get: [ModelIdRequest, Model, { callers: ['gateway', 'runtime'] }],
});

export const agentSubjects = defineSubjects(SERVICE, 'agents', {
  ...resourceOperations({ resource: Agent, id: AgentIdRequest, create: AgentCreateBody, list: [AgentListRequest, AgentListReply], update: UpdateAgentRequest }),
  /** With an optional version; the deployments service too: a session keeps its agent version's definition (versions are immutable). */
  get: [GetAgentRequest, Agent, { callers: ['gateway', 'deployments'] }],
  /** One agent's versions, newest first. */
  listVersions: [AgentVersionListRequest, AgentListReply],
});

export const environmentSubjects = defineSubjects(SERVICE, 'environments', {
  ...resourceOperations({ resource: Environment, id: EnvironmentIdRequest, create: EnvironmentCreateBody, list: [EnvironmentListRequest, EnvironmentListReply], update: UpdateEnvironmentRequest, deleted: EnvironmentDeleted }),
  /** The runtime too: an environment's type decides which workers serve its sessions' work items. */
  get: [EnvironmentIdRequest, Environment, { callers: ['gateway', 'runtime'] }],
});

export const fileSubjects = defineSubjects(SERVICE, 'files', {
  upload: [UploadFileRequest, FileMetadata],
  get: [FileIdRequest, FileMetadata],
  list: [FileListRequest, FileListReply],
  /** The runtime reads a file rubric's text to grade an outcome. */
  download: [FileIdRequest, FileContent, { callers: ['gateway', 'runtime'] }],
  delete: [FileIdRequest, FileDeleted],
});

export const memoryStoreSubjects = defineSubjects(
  SERVICE,
  'memory_stores',
  resourceOperations({ resource: MemoryStore, id: MemoryStoreIdRequest, create: MemoryStoreCreateBody, list: [MemoryStoreListRequest, MemoryStoreListReply], update: UpdateMemoryStoreRequest, deleted: MemoryStoreDeleted }),
);

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const referenceSubjects = defineSubjects(SERVICE, 'references', {
  resolve: [ResolveReferencesRequest, ResolveReferencesReply, { callers: ['deployments'] }],
});
