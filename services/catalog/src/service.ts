import type { BusServer } from '@shared/bus/bus-server';
import {
  agentSubjects,
  environmentSubjects,
  fileSubjects,
  memoryStoreSubjects,
  modelSubjects,
  referenceSubjects,
} from '@shared/bus/subjects/catalog';
import { archiveAgent } from './handlers/archive-agent';
import { archiveEnvironment } from './handlers/archive-environment';
import { archiveMemoryStore } from './handlers/archive-memory-store';
import { createAgent } from './handlers/create-agent';
import { createEnvironment } from './handlers/create-environment';
import { createMemoryStore } from './handlers/create-memory-store';
import { deleteEnvironment } from './handlers/delete-environment';
import { deleteFile } from './handlers/delete-file';
import { deleteMemoryStore } from './handlers/delete-memory-store';
import { downloadFile } from './handlers/download-file';
import { getAgent } from './handlers/get-agent';
import { getEnvironment } from './handlers/get-environment';
import { getFile } from './handlers/get-file';
import { getMemoryStore } from './handlers/get-memory-store';
import { getModel } from './handlers/get-model';
import { listAgentVersions } from './handlers/list-agent-versions';
import { listAgents } from './handlers/list-agents';
import { listEnvironments } from './handlers/list-environments';
import { listFiles } from './handlers/list-files';
import { listMemoryStores } from './handlers/list-memory-stores';
import { listModels } from './handlers/list-models';
import { resolveReferences } from './handlers/resolve-references';
import { updateAgent } from './handlers/update-agent';
import { updateEnvironment } from './handlers/update-environment';
import { updateMemoryStore } from './handlers/update-memory-store';
import { uploadFile } from './handlers/upload-file';
import type { CatalogDeps } from './deps';

/** Wires the catalog's bus subjects to their handlers; nothing else. */
export function registerCatalogHandlers(server: BusServer, deps: CatalogDeps): void {
  server
    .handle(modelSubjects.list, listModels(deps))
    .handle(modelSubjects.get, getModel(deps))
    .handle(agentSubjects.create, createAgent(deps))
    .handle(agentSubjects.get, getAgent(deps))
    .handle(agentSubjects.list, listAgents(deps))
    .handle(agentSubjects.update, updateAgent(deps))
    .handle(agentSubjects.archive, archiveAgent(deps))
    .handle(agentSubjects.listVersions, listAgentVersions(deps))
    .handle(environmentSubjects.create, createEnvironment(deps))
    .handle(environmentSubjects.get, getEnvironment(deps))
    .handle(environmentSubjects.list, listEnvironments(deps))
    .handle(environmentSubjects.update, updateEnvironment(deps))
    .handle(environmentSubjects.archive, archiveEnvironment(deps))
    .handle(environmentSubjects.delete, deleteEnvironment(deps))
    .handle(fileSubjects.upload, uploadFile(deps))
    .handle(fileSubjects.get, getFile(deps))
    .handle(fileSubjects.list, listFiles(deps))
    .handle(fileSubjects.download, downloadFile(deps))
    .handle(fileSubjects.delete, deleteFile(deps))
    .handle(memoryStoreSubjects.create, createMemoryStore(deps))
    .handle(memoryStoreSubjects.get, getMemoryStore(deps))
    .handle(memoryStoreSubjects.list, listMemoryStores(deps))
    .handle(memoryStoreSubjects.update, updateMemoryStore(deps))
    .handle(memoryStoreSubjects.archive, archiveMemoryStore(deps))
    .handle(memoryStoreSubjects.delete, deleteMemoryStore(deps))
    .handle(referenceSubjects.resolve, resolveReferences(deps));
}
