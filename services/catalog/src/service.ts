import type { BusServer } from '../../../shared/bus/bus-server';
import { catalogReferenceSubjects, catalogSubjects } from '../../../shared/bus/subjects/catalog';
import type { CatalogDeps } from './catalog-deps';
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

/** Wires the catalog's bus subjects to their handlers; nothing else. */
export function registerCatalogHandlers(server: BusServer, deps: CatalogDeps): void {
  const s = catalogSubjects;
  server
    .handle(s.listModels, listModels(deps.models))
    .handle(s.getModel, getModel(deps.models))
    .handle(s.createAgent, createAgent(deps))
    .handle(s.getAgent, getAgent(deps))
    .handle(s.listAgents, listAgents(deps))
    .handle(s.updateAgent, updateAgent(deps))
    .handle(s.archiveAgent, archiveAgent(deps))
    .handle(s.createEnvironment, createEnvironment(deps))
    .handle(s.getEnvironment, getEnvironment(deps))
    .handle(s.listEnvironments, listEnvironments(deps))
    .handle(s.updateEnvironment, updateEnvironment(deps))
    .handle(s.archiveEnvironment, archiveEnvironment(deps))
    .handle(s.deleteEnvironment, deleteEnvironment(deps))
    .handle(s.uploadFile, uploadFile(deps))
    .handle(s.getFile, getFile(deps))
    .handle(s.listFiles, listFiles(deps))
    .handle(s.downloadFile, downloadFile(deps))
    .handle(s.deleteFile, deleteFile(deps))
    .handle(s.createMemoryStore, createMemoryStore(deps))
    .handle(s.getMemoryStore, getMemoryStore(deps))
    .handle(s.listMemoryStores, listMemoryStores(deps))
    .handle(s.updateMemoryStore, updateMemoryStore(deps))
    .handle(s.archiveMemoryStore, archiveMemoryStore(deps))
    .handle(s.deleteMemoryStore, deleteMemoryStore(deps))
    .handle(catalogReferenceSubjects.resolveReferences, resolveReferences(deps));
}
