import type { Model } from '@shared/schema/model';

const yes = { supported: true };
const no = { supported: false };

/**
 * A model as the catalog holds it (shared/schema/model.ts), for unit tests that need one without
 * the shipped file: every field the SDK declares, with plain values; `over` replaces any of them.
 */
export function modelFixture(over: Partial<Model> = {}): Model {
  return {
    type: 'model',
    id: 'claude-test',
    display_name: 'Test',
    created_at: '2026-01-01T00:00:00.000Z',
    allowed_fallback_models: [],
    capabilities: {
      batch: yes,
      citations: yes,
      code_execution: yes,
      compaction: { summarize: no, supported: false },
      context_management: { clear_thinking_20251015: yes, clear_tool_uses_20250919: yes, compact_20260112: null, supported: true },
      effort: { high: yes, low: yes, max: no, medium: yes, supported: true, xhigh: null },
      image_input: yes,
      pdf_input: yes,
      server_tools: { code_execution: yes, supported: true, web_search: yes },
      structured_outputs: yes,
      thinking: { supported: true, types: { adaptive: no, between_tools: no, disabled: yes, enabled: yes } },
    },
    lifecycle: 'active',
    deprecated_at: null,
    retires_at: null,
    line: null,
    max_input_tokens: 200_000,
    max_tokens: 64_000,
    list_price: null,
    supports_system_messages: true,
    ...over,
  };
}
