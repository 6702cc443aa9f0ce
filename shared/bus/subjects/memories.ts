import * as memory from '../../schema/memory';
import * as memoryVersion from '../../schema/memory-version';
import { defineSubjects } from '../subject';

/**
 * The memories of memory stores and their versions, served by the catalog (which owns the
 * stores): `catalog.memories.<verb>`, `catalog.memory_versions.<verb>`, tenant from the call
 * context. Writes carry their author (`actor`), which the gateway names from its caller.
 */
export const memorySubjects = defineSubjects('catalog', 'memories', {
  create: [memory.CreateMemoryRequest, memory.Memory],
  get: [memory.GetMemoryRequest, memory.Memory],
  list: [memory.MemoryListRequest, memory.MemoryListReply],
  update: [memory.UpdateMemoryRequest, memory.Memory],
  delete: [memory.DeleteMemoryRequest, memory.MemoryDeleted],
});

export const memoryVersionSubjects = defineSubjects('catalog', 'memory_versions', {
  get: [memoryVersion.GetMemoryVersionRequest, memoryVersion.MemoryVersion],
  list: [memoryVersion.MemoryVersionListRequest, memoryVersion.MemoryVersionListReply],
  redact: [memoryVersion.RedactMemoryVersionRequest, memoryVersion.MemoryVersion],
});
