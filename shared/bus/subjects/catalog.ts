import * as agent from '../../schema/agent';
import * as environment from '../../schema/environment';
import * as file from '../../schema/file';
import * as memoryStore from '../../schema/memory-store';
import * as model from '../../schema/model';
import * as references from '../../schema/references';
import { resourceOperations } from '../resource-operations';
import { defineSubjects } from '../subject';

const SERVICE = 'catalog';

/**
 * The catalog's operations, one map per resource, keyed by verb: the NATS subject is
 * `catalog.<resource>.<verb>`. Every resource call is scoped to the tenant in the call context.
 */
export const modelSubjects = defineSubjects(SERVICE, 'models', {
  list: [model.ModelListQuery, model.ModelPage],
  /** The runtime too: a model's list price, which a session's usage is costed at. */
  get: [model.ModelIdRequest, model.Model, { callers: ['gateway', 'runtime'] }],
});

export const agentSubjects = defineSubjects(SERVICE, 'agents', {
  ...resourceOperations({ resource: agent.Agent, id: agent.AgentIdRequest, create: agent.AgentCreateBody, list: [agent.AgentListRequest, agent.AgentListReply], update: agent.UpdateAgentRequest }),
  /** With an optional version; the deployments service too: a session keeps its agent version's definition (versions are immutable). */
  get: [agent.GetAgentRequest, agent.Agent, { callers: ['gateway', 'deployments'] }],
  /** One agent's versions, newest first. */
  listVersions: [agent.AgentVersionListRequest, agent.AgentListReply],
});

export const environmentSubjects = defineSubjects(SERVICE, 'environments', {
  ...resourceOperations({ resource: environment.Environment, id: environment.EnvironmentIdRequest, create: environment.EnvironmentCreateBody, list: [environment.EnvironmentListRequest, environment.EnvironmentListReply], update: environment.UpdateEnvironmentRequest, deleted: environment.EnvironmentDeleted }),
  /** The runtime too: an environment's type decides which workers serve its sessions' work items. */
  get: [environment.EnvironmentIdRequest, environment.Environment, { callers: ['gateway', 'runtime'] }],
});

export const fileSubjects = defineSubjects(SERVICE, 'files', {
  upload: [file.UploadFileRequest, file.FileMetadata],
  get: [file.FileIdRequest, file.FileMetadata],
  list: [file.FileListRequest, file.FileListReply],
  /** The runtime reads a file rubric's text to grade an outcome. */
  /** Also the sandbox worker's: a session's file resources, written into its sandbox. */
  download: [file.FileIdRequest, file.FileContent, { callers: ['gateway', 'runtime', 'sandbox-worker'] }],
  delete: [file.FileIdRequest, file.FileDeleted],
});

export const memoryStoreSubjects = defineSubjects(
  SERVICE,
  'memory_stores',
  resourceOperations({ resource: memoryStore.MemoryStore, id: memoryStore.MemoryStoreIdRequest, create: memoryStore.MemoryStoreCreateBody, list: [memoryStore.MemoryStoreListRequest, memoryStore.MemoryStoreListReply], update: memoryStore.UpdateMemoryStoreRequest, deleted: memoryStore.MemoryStoreDeleted }),
);

/** Reference checks other services ask of the catalog (tenant from the call context). */
export const referenceSubjects = defineSubjects(SERVICE, 'references', {
  resolve: [references.ResolveReferencesRequest, references.ResolveReferencesReply, { callers: ['deployments'] }],
});
