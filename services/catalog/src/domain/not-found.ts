import { resourceNotFound, withErrorCode } from '@shared/errors/api-error';

// One message per resource: every handler that misses a row answers with the same words.
export const agentNotFound = (id: string) => resourceNotFound('agent', id);
export const agentVersionNotFound = (id: string, version: number) => resourceNotFound('agent', id, { version });
// The SDK (1.x) raises BetaEnvironmentNotFoundError on this code.
export const environmentNotFound = (id: string) => withErrorCode(resourceNotFound('environment', id), 'environment_not_found');
export const memoryStoreNotFound = (id: string) => resourceNotFound('memory store', id);
export const memoryNotFound = (id: string) => resourceNotFound('memory', id);
export const memoryVersionNotFound = (id: string) => resourceNotFound('memory version', id);
export const fileNotFound = (id: string) => resourceNotFound('file', id);
export const modelNotFound = (id: string) => resourceNotFound('model', id);
export const skillNotFound = (id: string) => resourceNotFound('skill', id);
export const skillVersionNotFound = (version: string) => resourceNotFound('skill version', version);
