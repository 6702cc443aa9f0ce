import { Type, type Static } from '@sinclair/typebox';
import { Closed, IdOf, Nullable } from './common';
import {
  INITIAL_EVENTS_MAX_BYTES,
  SystemMessageEventParams,
  ToolResultContentParts,
  UserDefineOutcomeEventParams,
  UserMessageEventParams,
} from './deployment';

/**
 * What a client sends to a session's log (`POST /v1/sessions/{id}/events`), with its limits: the
 * SDK's BetaManagedAgentsEventParams, bounded. The kinds a deployment's initial events share
 * (user.message, user.define_outcome, system.message) are the schemas of shared/schema/deployment.ts:
 * one schema for one event kind, wherever it is sent.
 */

// ---------------------------------------------------------------------------------------------
// Limits (named in the errors the validator writes).

/** Events in one send. */
export const SEND_EVENTS_MAX = 50;
/** A send's `events` as UTF-8 JSON: the bound the deployment's initial events have. */
export const SEND_EVENTS_MAX_BYTES = INITIAL_EVENTS_MAX_BYTES;
/** Content blocks in one tool result. */
const TOOL_RESULT_BLOCKS_MAX = 100;

// ---------------------------------------------------------------------------------------------
// What a client sends: the SDK's BetaManagedAgentsEventParams, bounded.

/** An event id another event refers to (a tool use); its kind and session are checked by the service. */
const EventReference = IdOf('sessionEvent');
const ThreadId = Type.String({ minLength: 1, maxLength: 128 });

/** A tool result's content blocks: bounded as a client sends them, unbounded as the log returns them. */
export function toolResultBlocks(bounded: boolean) {
  const parts = bounded ? ToolResultContentParts.request : ToolResultContentParts.response;
  const limit = <O extends Record<string, unknown>>(options: O) => (bounded ? options : {});
  const searchResult = Closed({
    type: Type.Literal('search_result'),
    source: Type.String({ minLength: 1, ...limit({ maxLength: 2048 }) }),
    title: Type.String(limit({ maxLength: 1024 })),
    content: Type.Array(parts.text, limit({ maxItems: TOOL_RESULT_BLOCKS_MAX })),
    citations: Closed({ enabled: Type.Boolean() }),
  });
  return Type.Array(
    Type.Union([parts.text, parts.image, parts.document, searchResult], {
      description: 'must be a text, image, document or search_result block',
    }),
    limit({ maxItems: TOOL_RESULT_BLOCKS_MAX }),
  );
}

export const UserInterruptEventParams = Closed({
  type: Type.Literal('user.interrupt'),
  session_thread_id: Type.Optional(Nullable(ThreadId)),
});
export const UserToolConfirmationEventParams = Closed({
  type: Type.Literal('user.tool_confirmation'),
  tool_use_id: EventReference,
  result: Type.Union([Type.Literal('allow'), Type.Literal('deny')], { description: "must be 'allow' or 'deny'" }),
  deny_message: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
});
export const UserCustomToolResultEventParams = Closed({
  type: Type.Literal('user.custom_tool_result'),
  custom_tool_use_id: EventReference,
  content: Type.Optional(toolResultBlocks(true)),
  is_error: Type.Optional(Nullable(Type.Boolean())),
});
export const UserToolResultEventParams = Closed({
  type: Type.Literal('user.tool_result'),
  tool_use_id: EventReference,
  content: Type.Optional(toolResultBlocks(true)),
  is_error: Type.Optional(Nullable(Type.Boolean())),
});

export const SessionEventParams = Type.Union(
  [
    UserMessageEventParams,
    UserInterruptEventParams,
    UserToolConfirmationEventParams,
    UserCustomToolResultEventParams,
    UserDefineOutcomeEventParams,
    UserToolResultEventParams,
    SystemMessageEventParams,
  ],
  {
    description:
      'must be a user.message, user.interrupt, user.tool_confirmation, user.custom_tool_result, user.define_outcome, user.tool_result or system.message event',
  },
);
export type SessionEventParams = Static<typeof SessionEventParams>;

/** `POST /v1/sessions/{id}/events` body (the SDK's EventSendParams). */
export const SendSessionEventsBody = Closed({
  events: Type.Array(SessionEventParams, { minItems: 1, maxItems: SEND_EVENTS_MAX, maxBytes: SEND_EVENTS_MAX_BYTES }),
});
