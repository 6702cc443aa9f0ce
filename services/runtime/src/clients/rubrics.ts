import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { fileSubjects } from '@shared/bus/subjects/catalog';
import type { OutcomeState } from '../domain/session-log';

/** The most of a file rubric the grader reads: the bound a text rubric has (shared/schema/deployment.ts). */
const RUBRIC_MAX_CHARS = 262_144;

/** An outcome's rubric as text: a text rubric as it is, a file rubric's content from the catalog (read as UTF-8). */
export interface Rubrics {
  textOf(ctx: CallContext, rubric: OutcomeState['rubric']): Promise<string>;
}

export function rubrics(bus: Pick<BusClient, 'call'>, transferTimeoutMs: number): Rubrics {
  return {
    async textOf(ctx, rubric) {
      if (rubric.type === 'text') return rubric.content;
      const file = await bus.call(fileSubjects.download, ctx, { file_id: rubric.file_id }, { timeoutMs: transferTimeoutMs });
      return Buffer.from(file.content_base64, 'base64').toString('utf8').slice(0, RUBRIC_MAX_CHARS);
    },
  };
}
