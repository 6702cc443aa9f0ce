import { Type } from '@sinclair/typebox';
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
import { Model, ModelListQuery, ModelPage } from '../../schema/model';
import { ResolveReferencesReply, ResolveReferencesRequest } from '../../schema/references';
import { defineSubject } from '../subject';

const SERVICE = 'catalog';

/** Public catalog operations; every resource call is scoped to the tenant in the call context. */
export const catalogSubjects = {
  listModels: defineSubject(SERVICE, 'models.list', ModelListQuery, ModelPage),
  getModel: defineSubject(SERVICE, 'models.get', Type.Object({ id: Type.String() }, { additionalProperties: false }), Model),

  createAgent: defineSubject(SERVICE, 'agents.create', AgentCreateBody, Agent),
  getAgent: defineSubject(SERVICE, 'agents.get', GetAgentRequest, Agent),
  listAgents: defineSubject(SERVICE, 'agents.list', AgentListRequest, AgentListReply),
  updateAgent: defineSubject(SERVICE, 'agents.update', UpdateAgentRequest, Agent),
  archiveAgent: defineSubject(SERVICE, 'agents.archive', AgentIdRequest, Agent),

  createEnvironment: defineSubject(SERVICE, 'environments.create', EnvironmentCreateBody, Environment),
  getEnvironment: defineSubject(SERVICE, 'environments.get', EnvironmentIdRequest, Environment),
  listEnvironments: defineSubject(SERVICE, 'environments.list', EnvironmentListRequest, EnvironmentListReply),
  updateEnvironment: defineSubject(SERVICE, 'environments.update', UpdateEnvironmentRequest, Environment),
  archiveEnvironment: defineSubject(SERVICE, 'environments.archive', EnvironmentIdRequest, Environment),
  deleteEnvironment: defineSubject(SERVICE, 'environments.delete', EnvironmentIdRequest, EnvironmentDeleted),

  uploadFile: defineSubject(SERVICE, 'files.upload', UploadFileRequest, FileMetadata),
  getFile: defineSubject(SERVICE, 'files.get', FileIdRequest, FileMetadata),
  listFiles: defineSubject(SERVICE, 'files.list', FileListRequest, FileListReply),
  downloadFile: defineSubject(SERVICE, 'files.download', FileIdRequest, FileContent),
  deleteFile: defineSubject(SERVICE, 'files.delete', FileIdRequest, FileDeleted),

  createMemoryStore: defineSubject(SERVICE, 'memory_stores.create', MemoryStoreCreateBody, MemoryStore),
  getMemoryStore: defineSubject(SERVICE, 'memory_stores.get', MemoryStoreIdRequest, MemoryStore),
  listMemoryStores: defineSubject(SERVICE, 'memory_stores.list', MemoryStoreListRequest, MemoryStoreListReply),
  updateMemoryStore: defineSubject(SERVICE, 'memory_stores.update', UpdateMemoryStoreRequest, MemoryStore),
  archiveMemoryStore: defineSubject(SERVICE, 'memory_stores.archive', MemoryStoreIdRequest, MemoryStore),
  deleteMemoryStore: defineSubject(SERVICE, 'memory_stores.delete', MemoryStoreIdRequest, MemoryStoreDeleted),
};

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const catalogReferenceSubjects = {
  resolveReferences: defineSubject(SERVICE, 'references.resolve', ResolveReferencesRequest, ResolveReferencesReply, {
    callers: ['deployments'],
  }),
};
