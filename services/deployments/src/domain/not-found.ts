import { resourceNotFound } from '@shared/errors/api-error';

// One message per resource: every handler that misses a row answers with the same words.
export const deploymentNotFound = (id: string) => resourceNotFound('deployment', id);
export const deploymentRunNotFound = (id: string) => resourceNotFound('deployment run', id);
export const sessionNotFound = (id: string) => resourceNotFound('session', id);
