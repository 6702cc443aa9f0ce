import { resourceNotFound } from '@shared/errors/api-error';

export const workNotFound = (id: string) => resourceNotFound('work', id);
