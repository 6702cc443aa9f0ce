import { bucketName } from '../service-host/service-host';
import { KEY_VALUE_BUCKETS, keyValueBucketName, type KeyValueBucketKey } from './key-value-buckets';
import { liveFeedPermissions } from './live-feeds';
import { inboxPrefix } from './nats-connection';
import { PAYLOAD_BUCKET_OWNER, PAYLOAD_BUCKET_USERS } from './payload-codec';
import { eventSubject, STREAMS, streamName, streamsOf, type StreamKey } from './streams';
import { BUS_IDENTITIES, rpcSubject, type BusIdentity, type Subject } from './subject';
import { agentSubjects, environmentSubjects, fileSubjects, memoryStoreSubjects, modelSubjects, referenceSubjects } from './subjects/catalog';
import { deploymentRunSubjects, deploymentSubjects } from './subjects/deployments';
import { memorySubjects, memoryVersionSubjects } from './subjects/memories';
import { skillSubjects, skillVersionSubjects } from './subjects/skills';
import { mcpCredentialSubjects, workSubjects } from './subjects/runtime';
import { sessionEventSubjects } from './subjects/session-events';
import { sessionResourceSubjects, sessionSubjects } from './subjects/sessions';
import { vaultCredentialSubjects, vaultSubjects } from './subjects/vaults';

/**
 * Every request/reply subject of the product. The NATS permissions below are derived from this
 * list and each subject's `service` and `callers`, never written by hand: a subject missing here
 * is one no identity may serve, which the bus-permissions test notices at once.
 */
export const ALL_SUBJECTS: readonly Subject[] = [
  modelSubjects,
  agentSubjects,
  environmentSubjects,
  fileSubjects,
  memoryStoreSubjects,
  memorySubjects,
  memoryVersionSubjects,
  skillSubjects,
  skillVersionSubjects,
  referenceSubjects,
  deploymentSubjects,
  deploymentRunSubjects,
  sessionSubjects,
  sessionResourceSubjects,
  sessionEventSubjects,
  vaultSubjects,
  vaultCredentialSubjects,
  workSubjects,
  mcpCredentialSubjects,
].flatMap((group) => Object.values(group) as Subject[]);

/** nats-server's per-user permissions block. */
export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** Lets a responder publish to the reply subject of a request it received, and nowhere else. */
  allow_responses?: boolean;
}

/** The NATS user name of an identity in an install: `<identity>`, or `<BUS_PREFIX>-<identity>`. */
export const natsUserName = (prefix: string, identity: BusIdentity): string => (prefix ? `${prefix}-${identity}` : identity);

/** JetStream API calls that create a stream or bring its settings up to date (ensureStreams, object store create). */
const streamAdmin = (stream: string) => [
  `$JS.API.STREAM.CREATE.${stream}`,
  `$JS.API.STREAM.UPDATE.${stream}`,
  `$JS.API.STREAM.INFO.${stream}`,
];
/** Durable, ordered and pull consumers on one stream, and their acknowledgements and flow control. */
const consumerAccess = (stream: string) => [
  `$JS.API.CONSUMER.CREATE.${stream}`,
  `$JS.API.CONSUMER.CREATE.${stream}.>`,
  `$JS.API.CONSUMER.DURABLE.CREATE.${stream}.>`,
  `$JS.API.CONSUMER.INFO.${stream}.>`,
  `$JS.API.CONSUMER.DELETE.${stream}.>`,
  `$JS.API.CONSUMER.MSG.NEXT.${stream}.>`,
  `$JS.ACK.${stream}.>`,
  `$JS.FC.${stream}.>`,
];

/** Reading and writing one key-value bucket (and creating it): its keys' subjects and direct gets of their last values. */
const keyValueAccess = (bucket: string) => {
  const stream = `KV_${bucket}`;
  return [
    `$KV.${bucket}.>`,
    ...streamAdmin(stream),
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
  ];
};

/**
 * What one identity may do on the bus of an install (BUS_PREFIX `prefix`):
 * - request the rpc subjects whose `callers` name it (the gateway: the public operations);
 * - serve (subscribe to) the rpc subjects of its own service, and reply to what it receives;
 * - receive on its own inbox only (inboxPrefix), so it cannot read other services' replies;
 * - publish the events of the streams it owns, consume the streams it reads, manage only those;
 * - subscribe to the events of the streams it follows (core NATS, no consumer);
 * - put and get the objects of the bucket that carries sealed large payloads (useless without
 *   the one-off key that travels in a core NATS header) if its subjects may need it
 *   (PAYLOAD_BUCKET_USERS); only PAYLOAD_BUCKET_OWNER may create or update that bucket's stream,
 *   since an identity that may set its subjects could capture other services' messages in it;
 * - use the key-value buckets declared for it (shared/bus/key-value-buckets.ts), no others;
 * - publish or follow the live feeds declared for it (shared/bus/live-feeds.ts).
 */
export function busPermissions(prefix: string, identity: BusIdentity): NatsPermissions {
  const calls = ALL_SUBJECTS.filter((s) => s.callers.includes(identity)).map((s) => rpcSubject(prefix, s));
  const serves = ALL_SUBJECTS.filter((s) => s.service === identity).map((s) => rpcSubject(prefix, s));
  const bucket = bucketName(prefix);
  const objects = `OBJ_${bucket}`;
  const publish = [...calls, '$JS.API.INFO'];
  if (PAYLOAD_BUCKET_USERS.includes(identity)) {
    publish.push(
      `$O.${bucket}.>`,
      ...(identity === PAYLOAD_BUCKET_OWNER ? streamAdmin(objects) : [`$JS.API.STREAM.INFO.${objects}`]),
      `$JS.API.STREAM.MSG.GET.${objects}`,
      `$JS.API.DIRECT.GET.${objects}`,
      `$JS.API.DIRECT.GET.${objects}.>`,
      `$JS.API.STREAM.PURGE.${objects}`,
      ...consumerAccess(objects),
    );
  }
  // Followers subscribe to the events themselves: no stream or consumer to manage.
  const follows = (Object.keys(STREAMS) as StreamKey[])
    .filter((key) => (STREAMS[key].followers as readonly BusIdentity[]).includes(identity))
    .map((key) => eventSubject(prefix, STREAMS[key].subjects));
  for (const key of streamsOf(identity)) {
    const stream = streamName(prefix, key);
    publish.push(...streamAdmin(stream));
    if (STREAMS[key].owner === identity) publish.push(eventSubject(prefix, STREAMS[key].subjects));
    if (readsStream(key, identity)) publish.push(...consumerAccess(stream));
  }
  for (const key of Object.keys(KEY_VALUE_BUCKETS) as KeyValueBucketKey[]) {
    if ((KEY_VALUE_BUCKETS[key].users as readonly BusIdentity[]).includes(identity)) {
      publish.push(...keyValueAccess(keyValueBucketName(prefix, key)));
    }
  }
  const feeds = liveFeedPermissions(prefix, identity);
  publish.push(...feeds.publish);
  return {
    publish: { allow: [...new Set(publish)] },
    subscribe: { allow: [...serves, ...follows, ...feeds.subscribe, `${inboxPrefix(prefix, identity)}.>`] },
    ...(serves.length > 0 ? { allow_responses: true } : {}),
  };
}

const readsStream = (key: StreamKey, identity: BusIdentity) =>
  (STREAMS[key].readers as readonly BusIdentity[]).includes(identity);

/** A password in the generated file: a literal (plain or bcrypt), or a reference to the server's environment. */
export type PasswordSource = { value: string } | { env: string };

export interface NatsUser {
  user: string;
  password: PasswordSource;
  permissions?: NatsPermissions;
}

/**
 * Name of the server-side environment variable holding an identity's password (`--passwords env`):
 * `-` becomes `_`, since nats-server reads `$NATS_PASSWORD_SANDBOX_WORKER` as one variable name.
 */
export const passwordEnvName = (identity: BusIdentity) => `NATS_PASSWORD_${identity.toUpperCase().replaceAll('-', '_')}`;

/** One user per identity, with its generated permissions; `extra` users (e.g. an operator's) are appended as given. */
export function natsUsers(prefix: string, password: (identity: BusIdentity) => PasswordSource, extra: NatsUser[] = []): NatsUser[] {
  return [
    ...BUS_IDENTITIES.map((identity) => ({
      user: natsUserName(prefix, identity),
      password: password(identity),
      permissions: busPermissions(prefix, identity),
    })),
    ...extra,
  ];
}

/**
 * The nats-server configuration block. Environment references are written unquoted (`$NAME`),
 * which the server resolves from its own environment at start, so the file holds no secret.
 */
export function renderNatsAuthorization(users: NatsUser[]): string {
  const lines = users.map((u) => {
    const password = 'env' in u.password ? `$${u.password.env}` : JSON.stringify(u.password.value);
    const permissions = u.permissions ? `, "permissions": ${JSON.stringify(u.permissions)}` : '';
    return `    {"user": ${JSON.stringify(u.user)}, "password": ${password}${permissions}}`;
  });
  return `authorization {\n  users = [\n${lines.join(',\n')}\n  ]\n}\n`;
}

/**
 * The same block as values of the official nats Helm chart (`config.merge.authorization`), as
 * the agent-deployments-stack chart carries it: each password is `<< $NATS_PASSWORD_<SERVICE> >>`,
 * which that chart writes unquoted, so the server reads it from its environment.
 */
export function helmNatsAuthorization(prefix: string): { users: Array<Record<string, unknown>> } {
  return {
    users: natsUsers(prefix, (identity) => ({ env: passwordEnvName(identity) })).map((u) => ({
      user: u.user,
      password: 'env' in u.password ? `<< $${u.password.env} >>` : u.password.value,
      permissions: u.permissions,
    })),
  };
}
