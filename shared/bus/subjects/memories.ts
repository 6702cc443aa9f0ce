import {
  CreateMemoryRequest,
  DeleteMemoryRequest,
  GetMemoryRequest,
  Memory,
  MemoryDeleted,
  MemoryListReply,
  MemoryListRequest,
  UpdateMemoryRequest,
} from '../../schema/memory';
import {
  GetMemoryVersionRequest,
  MemoryVersion,
  MemoryVersionListReply,
  MemoryVersionListRequest,
  RedactMemoryVersionRequest,
} from '../../schema/memory-version';
import { defineSubjects } from '../subject';

/**
 * The memories of memory stores and their versions, served by the catalog (which owns the
 * stores): `catalog.memories.<verb>`, `catalog.memory_versions.<verb>`, tenant from the call
 * context. Writes carry their author (`actor`), which the gateway names from its caller.
 */
export const memorySubjects = defineSubjects('catalog', 'memories', {
  create: [CreateMemoryRequest, Memory],
  get: [GetMemoryRequest, Memory],
  list: [MemoryListRequest, MemoryListReply],
  update: [UpdateMemoryRequest, Memory],
  delete: [DeleteMemoryRequest, MemoryDeleted],
});

export const memoryVersionSubjects = defineSubjects('catalog', 'memory_versions', {
  get: [GetMemoryVersionRequest, MemoryVersion],
  list: [MemoryVersionListRequest, MemoryVersionListReply],
  redact: [RedactMemoryVersionRequest, MemoryVersion],
});
