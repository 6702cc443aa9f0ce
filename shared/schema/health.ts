import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './common';

/** What `/healthz` answers: the process is alive. */
export const Health = Closed({ status: Type.Literal('ok') });
export type Health = Static<typeof Health>;

/** What `/readyz` answers: ready (200) or not (503); never why, which is logged. */
export const Readiness = Closed({ status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]) });
export type Readiness = Static<typeof Readiness>;
