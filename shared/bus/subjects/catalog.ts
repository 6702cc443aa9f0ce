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
  create: [AgentCreateBody, Agent],
  /** The deployments service too: a session keeps its agent version's definition (versions are immutable). */
  get: [GetAgentRequest, Agent, { callers: ['gateway', 'deployments'] }],
  list: [AgentListRequest, AgentListReply],
  update: [UpdateAgentRequest, Agent],
  archive: [AgentIdRequest, Agent],
  /** One agent's versions, newest first. */
  listVersions: [AgentVersionListRequest, AgentListReply],
});

export const environmentSubjects = defineSubjects(SERVICE, 'environments', {
  create: [EnvironmentCreateBody, Environment],
  /** The runtime too: an environment's type decides which workers serve its sessions' work items. */
  get: [EnvironmentIdRequest, Environment, { callers: ['gateway', 'runtime'] }],
  list: [EnvironmentListRequest, EnvironmentListReply],
  update: [UpdateEnvironmentRequest, Environment],
  archive: [EnvironmentIdRequest, Environment],
  delete: [EnvironmentIdRequest, EnvironmentDeleted],
});

export const fileSubjects = defineSubjects(SERVICE, 'files', {
  upload: [UploadFileRequest, FileMetadata],
  get: [FileIdRequest, FileMetadata],
  list: [FileListRequest, FileListReply],
  /** The runtime reads a file rubric's text to grade an outcome. */
  download: [FileIdRequest, FileContent, { callers: ['gateway', 'runtime'] }],
  delete: [FileIdRequest, FileDeleted],
});

export const memoryStoreSubjects = defineSubjects(SERVICE, 'memory_stores', {
  create: [MemoryStoreCreateBody, MemoryStore],
  get: [MemoryStoreIdRequest, MemoryStore],
  list: [MemoryStoreListRequest, MemoryStoreListReply],
  update: [UpdateMemoryStoreRequest, MemoryStore],
  archive: [MemoryStoreIdRequest, MemoryStore],
  delete: [MemoryStoreIdRequest, MemoryStoreDeleted],
});

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const referenceSubjects = defineSubjects(SERVICE, 'references', {
  resolve: [ResolveReferencesRequest, ResolveReferencesReply, { callers: ['deployments'] }],
});
