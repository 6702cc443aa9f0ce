import { notFound, withErrorCode } from '@shared/errors/api-error';

// One message per resource: every handler that misses a row answers with the same words.
export const agentNotFound = (id: string) => notFound(`agent ${id} not found`);
export const agentVersionNotFound = (id: string, version: number) => notFound(`agent ${id} version ${version} not found`);
// The SDK (1.x) raises BetaEnvironmentNotFoundError on this code.
export const environmentNotFound = (id: string) => withErrorCode(notFound(`environment ${id} not found`), 'environment_not_found');
export const memoryStoreNotFound = (id: string) => notFound(`memory store ${id} not found`);
export const fileNotFound = (id: string) => notFound(`file ${id} not found`);
export const modelNotFound = (id: string) => notFound(`model ${id} not found`);
