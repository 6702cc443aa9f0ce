import { notFound } from '@shared/errors/api-error';

// One message per resource: every handler that misses a row answers with the same words.
export const deploymentNotFound = (id: string) => notFound(`deployment '${id}' not found`);
export const deploymentRunNotFound = (id: string) => notFound(`deployment run '${id}' not found`);
export const sessionNotFound = (id: string) => notFound(`session '${id}' not found`);
