import { notFound } from '@shared/errors/api-error';

export const workNotFound = (id: string) => notFound(`work '${id}' not found`);
