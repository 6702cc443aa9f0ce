import type { Handler } from '../../../../shared/bus/bus-server';
import type { deploymentSubjects } from '../../../../shared/bus/subjects/deployments';

type S = typeof deploymentSubjects.list;

/** Placeholder until deployments are stored: an empty, final page. */
export const listDeployments = (): Handler<S['request'], S['reply']> => async () => ({ data: [], next: null });
