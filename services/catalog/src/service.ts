import type { BusServer } from '@shared/bus/bus-server';
import {
  agentSubjects,
  environmentSubjects,
  fileSubjects,
  memoryStoreSubjects,
  modelSubjects,
  referenceSubjects,
} from '@shared/bus/subjects/catalog';
import { memorySubjects, memoryVersionSubjects } from '@shared/bus/subjects/memories';
import { archiveAgent } from './handlers/archive-agent';
import { archiveEnvironment } from './handlers/archive-environment';
import { archiveMemoryStore } from './handlers/archive-memory-store';
import { createAgent } from './handlers/create-agent';
import { createEnvironment } from './handlers/create-environment';
import { createMemory } from './handlers/create-memory';
import { createMemoryStore } from './handlers/create-memory-store';
import { deleteEnvironment } from './handlers/delete-environment';
import { deleteFile } from './handlers/delete-file';
import { deleteMemory } from './handlers/delete-memory';
import { deleteMemoryStore } from './handlers/delete-memory-store';
import { downloadFile } from './handlers/download-file';
import { getAgent } from './handlers/get-agent';
import { getEnvironment } from './handlers/get-environment';
import { getFile } from './handlers/get-file';
import { getMemory } from './handlers/get-memory';
import { getMemoryStore } from './handlers/get-memory-store';
import { getMemoryVersion } from './handlers/get-memory-version';
import { getModel } from './handlers/get-model';
import { listAgentVersions } from './handlers/list-agent-versions';
import { listAgents } from './handlers/list-agents';
import { listEnvironments } from './handlers/list-environments';
import { listFiles } from './handlers/list-files';
import { listMemories } from './handlers/list-memories';
import { listMemoryStores } from './handlers/list-memory-stores';
import { listMemoryVersions } from './handlers/list-memory-versions';
import { redactMemoryVersion } from './handlers/redact-memory-version';
import { listModels } from './handlers/list-models';
import { resolveReferences } from './handlers/resolve-references';
import { updateAgent } from './handlers/update-agent';
import { updateEnvironment } from './handlers/update-environment';
import { updateMemory } from './handlers/update-memory';
import { updateMemoryStore } from './handlers/update-memory-store';
import { uploadFile } from './handlers/upload-file';
import { skillSubjects, skillVersionSubjects } from '@shared/bus/subjects/skills';
import { createSkill } from './handlers/create-skill';
import { createSkillVersion } from './handlers/create-skill-version';
import { deleteSkill } from './handlers/delete-skill';
import { deleteSkillVersion } from './handlers/delete-skill-version';
import { downloadSkillVersion } from './handlers/download-skill-version';
import { getSkill } from './handlers/get-skill';
import { getSkillVersion } from './handlers/get-skill-version';
import { listSkills } from './handlers/list-skills';
import { listSkillVersions } from './handlers/list-skill-versions';
import { resolveSkills } from './handlers/resolve-skills';
import type { CatalogDeps } from './deps';

/** Wires the catalog's bus subjects to their handlers; nothing else. */
export function registerCatalogHandlers(server: BusServer, deps: CatalogDeps): void {
  server
    .serve(modelSubjects, { list: listModels(deps), get: getModel(deps) })
    .serve(agentSubjects, {
      create: createAgent(deps),
      get: getAgent(deps),
      list: listAgents(deps),
      update: updateAgent(deps),
      archive: archiveAgent(deps),
      listVersions: listAgentVersions(deps),
    })
    .serve(environmentSubjects, {
      create: createEnvironment(deps),
      get: getEnvironment(deps),
      list: listEnvironments(deps),
      update: updateEnvironment(deps),
      archive: archiveEnvironment(deps),
      delete: deleteEnvironment(deps),
    })
    .serve(fileSubjects, {
      upload: uploadFile(deps),
      get: getFile(deps),
      list: listFiles(deps),
      download: downloadFile(deps),
      delete: deleteFile(deps),
    })
    .serve(memoryStoreSubjects, {
      create: createMemoryStore(deps),
      get: getMemoryStore(deps),
      list: listMemoryStores(deps),
      update: updateMemoryStore(deps),
      archive: archiveMemoryStore(deps),
      delete: deleteMemoryStore(deps),
    })
    .serve(memorySubjects, {
      create: createMemory(deps),
      get: getMemory(deps),
      list: listMemories(deps),
      update: updateMemory(deps),
      delete: deleteMemory(deps),
    })
    .serve(memoryVersionSubjects, {
      get: getMemoryVersion(deps),
      list: listMemoryVersions(deps),
      redact: redactMemoryVersion(deps),
    })
    .serve(skillSubjects, {
      create: createSkill(deps),
      get: getSkill(deps),
      list: listSkills(deps),
      delete: deleteSkill(deps),
      resolve: resolveSkills(deps),
    })
    .serve(skillVersionSubjects, {
      create: createSkillVersion(deps),
      get: getSkillVersion(deps),
      list: listSkillVersions(deps),
      delete: deleteSkillVersion(deps),
      download: downloadSkillVersion(deps),
    })
    .serve(referenceSubjects, { resolve: resolveReferences(deps) });
}
