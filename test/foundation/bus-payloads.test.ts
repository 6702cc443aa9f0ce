import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { Type } from '@sinclair/typebox';
import { BusClient } from '@shared/bus/bus-client';
import { BusServer } from '@shared/bus/bus-server';
import { PayloadCodec } from '@shared/bus/payload-codec';
import { defineSubject } from '@shared/bus/subject';
import { randomBase62 } from '@shared/ids/ids';
import { createLogger } from '@shared/log/logger';
import { bucketName } from '@shared/service-host/service-host';
import { infrastructure } from '../support/infrastructure';

const prefix = `tb${randomBase62(8).toLowerCase()}`;
const echo = defineSubject('echo', 'echo', Type.Object({ text: Type.String() }), Type.Object({ length: Type.Integer(), text: Type.String() }));
let nc: NatsConnection;
let client: BusClient;
let server: BusServer;
let codec: PayloadCodec;

beforeAll(async () => {
  nc = await connect({ servers: (await infrastructure()).natsUrl });
  codec = new PayloadCodec(nc, bucketName(prefix));
  const logger = createLogger('error');
  client = new BusClient(nc, codec, { prefix, timeoutMs: 10000, logger });
  server = new BusServer(nc, codec, { prefix, logger });
  server.handle(echo, async ({ text }) => ({ length: text.length, text }));
});

afterAll(async () => {
  await server.stop();
  const jsm = await jetstreamManager(nc);
  await jsm.streams.delete(`OBJ_${bucketName(prefix)}`).catch(() => undefined);
  await nc.close();
});

describe('bus payloads', () => {
  test('requests and replies over max_payload round-trip through the object store', async () => {
    const text = 'y'.repeat(3 * 1024 * 1024);
    const reply = await client.call(echo, { request_id: 'req_test', tenant: null }, { text });
    expect(reply).toEqual({ length: text.length, text });
  });

  test('an offloaded payload is sealed at rest; the key travels only in the message header', async () => {
    const secret = 'sk-secret-' + randomBase62(20);
    const value = { text: secret + 'x'.repeat(2 * 1024 * 1024) };
    const { data, headers } = await codec.encode(value);
    expect(data.byteLength).toBe(0);
    const ref = headers.get('payload-ref');
    const blob = await (await new Objm(jetstream(nc)).open(bucketName(prefix))).getBlob(ref);
    expect(blob).not.toBeNull();
    expect(new TextDecoder().decode(blob!)).not.toContain(secret);
    expect(await codec.decode(data, headers)).toEqual(value);
  });

  test('small payloads go inline', async () => {
    const { data, headers } = await codec.encode({ text: 'hi' });
    expect(headers.get('payload-ref')).toBe('');
    expect(await codec.decode(data, headers)).toEqual({ text: 'hi' });
  });
});
