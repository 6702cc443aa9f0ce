import {
  Agent,
  AgentCreateBody,
  AgentIdRequest,
  AgentListReply,
  AgentListRequest,
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
import { defineSubject } from '../subject';

const SERVICE = 'catalog';

/**
 * The catalog's operations, one map per resource, keyed by verb: the NATS subject is
 * `catalog.<resource>.<verb>`. Every resource call is scoped to the tenant in the call context.
 */
export const modelSubjects = {
  list: defineSubject(SERVICE, 'models.list', ModelListQuery, ModelPage),
  get: defineSubject(SERVICE, 'models.get', ModelIdRequest, Model),
};

export const agentSubjects = {
  create: defineSubject(SERVICE, 'agents.create', AgentCreateBody, Agent),
  get: defineSubject(SERVICE, 'agents.get', GetAgentRequest, Agent),
  list: defineSubject(SERVICE, 'agents.list', AgentListRequest, AgentListReply),
  update: defineSubject(SERVICE, 'agents.update', UpdateAgentRequest, Agent),
  archive: defineSubject(SERVICE, 'agents.archive', AgentIdRequest, Agent),
};

export const environmentSubjects = {
  create: defineSubject(SERVICE, 'environments.create', EnvironmentCreateBody, Environment),
  get: defineSubject(SERVICE, 'environments.get', EnvironmentIdRequest, Environment),
  list: defineSubject(SERVICE, 'environments.list', EnvironmentListRequest, EnvironmentListReply),
  update: defineSubject(SERVICE, 'environments.update', UpdateEnvironmentRequest, Environment),
  archive: defineSubject(SERVICE, 'environments.archive', EnvironmentIdRequest, Environment),
  delete: defineSubject(SERVICE, 'environments.delete', EnvironmentIdRequest, EnvironmentDeleted),
};

export const fileSubjects = {
  upload: defineSubject(SERVICE, 'files.upload', UploadFileRequest, FileMetadata),
  get: defineSubject(SERVICE, 'files.get', FileIdRequest, FileMetadata),
  list: defineSubject(SERVICE, 'files.list', FileListRequest, FileListReply),
  download: defineSubject(SERVICE, 'files.download', FileIdRequest, FileContent),
  delete: defineSubject(SERVICE, 'files.delete', FileIdRequest, FileDeleted),
};

export const memoryStoreSubjects = {
  create: defineSubject(SERVICE, 'memory_stores.create', MemoryStoreCreateBody, MemoryStore),
  get: defineSubject(SERVICE, 'memory_stores.get', MemoryStoreIdRequest, MemoryStore),
  list: defineSubject(SERVICE, 'memory_stores.list', MemoryStoreListRequest, MemoryStoreListReply),
  update: defineSubject(SERVICE, 'memory_stores.update', UpdateMemoryStoreRequest, MemoryStore),
  archive: defineSubject(SERVICE, 'memory_stores.archive', MemoryStoreIdRequest, MemoryStore),
  delete: defineSubject(SERVICE, 'memory_stores.delete', MemoryStoreIdRequest, MemoryStoreDeleted),
};

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const referenceSubjects = {
  resolve: defineSubject(SERVICE, 'references.resolve', ResolveReferencesRequest, ResolveReferencesReply, {
    callers: ['deployments'],
  }),
};
