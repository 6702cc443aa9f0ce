import type { BusClient } from '@shared/bus/bus-client';
import type { CallContext } from '@shared/bus/call-context';
import { skillSubjects } from '@shared/bus/subjects/skills';
import type { AgentSkill } from '@shared/schema/agent-tools';
import type { SkillSummary } from '../domain/system-prompt';

/** What the system prompt says of a session's skills, asked of the catalog, which stores them. */
export interface SkillSummaries {
  of(ctx: CallContext, skills: readonly AgentSkill[]): Promise<SkillSummary[]>;
}

/**
 * The agent's custom skills as their versions' names and descriptions, in the agent's order, one
 * catalog call per turn that has any. Anthropic's own skills (`xlsx`) are not served here, so the
 * SDK's worker cannot download them either: they are left out, as is a skill deleted since.
 */
export function skillSummaries(bus: Pick<BusClient, 'call'>): SkillSummaries {
  return {
    async of(ctx, skills) {
      const custom = skills.filter((s) => s.type === 'custom').map(({ skill_id, version }) => ({ skill_id, version }));
      if (custom.length === 0) return [];
      const { skills: resolved } = await bus.call(skillSubjects.resolve, ctx, { skills: custom });
      return resolved.flatMap((s) => (s.found ? [s.found] : []));
    },
  };
}
