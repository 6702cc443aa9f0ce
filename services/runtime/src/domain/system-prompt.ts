import type { SessionResource } from '@shared/schema/session';

/** What the model is told of one of its agent's skills (the version the session loads). */
export interface SkillSummary {
  name: string;
  description: string;
}

/**
 * The system prompt's sections about what the session mounts, after the agent's own prompt: the
 * memory section (each store the session mounts, where, how, and the `instructions` the session
 * attached it with) and the skills the environment's worker downloads. Plain text in a fixed
 * order, so the prompt of a session stays the same from turn to turn.
 */
export function mountedSections(resources: readonly SessionResource[], skills: readonly SkillSummary[]): string[] {
  const sections: string[] = [];
  const stores = resources.filter((r) => r.type === 'memory_store');
  if (stores.length > 0) {
    const lines = [
      '# Memory',
      'Memory stores are mounted as directories of text files. What you write in a read-write store is kept after this session and is there for later sessions that mount it; a read-only store can be read, not changed. Keep what you learn that will help later there, organised in files you can find again.',
    ];
    for (const store of stores) {
      if (store.type !== 'memory_store') continue;
      const where = store.mount_path ?? `memory/${store.name ?? store.memory_store_id}`;
      lines.push('', `## ${store.name ?? store.memory_store_id} (${where}, ${store.access === 'read_only' ? 'read-only' : 'read-write'})`);
      if (store.description) lines.push(store.description);
      if (store.instructions) lines.push(store.instructions);
    }
    sections.push(lines.join('\n'));
  }
  if (skills.length > 0) {
    const lines = ['# Skills', 'Each skill is a folder under skills/ in your working directory; read its SKILL.md before you use it.'];
    for (const skill of skills) lines.push(`- skills/${skill.name}/: ${skill.description}`);
    sections.push(lines.join('\n'));
  }
  return sections;
}
