import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { randomBytes } from 'node:crypto';
import { open, seal } from '../crypto/aead';
import { randomBase62 } from '../ids/ids';

const PAYLOAD_REF = 'payload-ref';
const PAYLOAD_KEY = 'payload-key';
/** Offloaded payloads outlive any request timeout by far, then expire on their own. */
const OFFLOAD_TTL_NS = 15 * 60 * 1_000_000_000;

/**
 * Encodes bus payloads. NATS caps a message at the server's max_payload (1 MiB by default),
 * while the API accepts 8 MiB bodies and larger file uploads. Anything over the cap goes to a
 * JetStream object store and travels as a reference, so no valid request is refused for size.
 * The stored copy is sealed with a one-off key that travels only in the core NATS message's
 * header, which is never persisted: a payload holding a secret (a repository token, a resolved
 * vault credential) is never readable at rest in the object store.
 */
export class PayloadCodec {
  private store: Promise<ObjectStore> | undefined;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: string,
  ) {}

  private threshold(): number {
    const max = this.nc.info?.max_payload ?? 1024 * 1024;
    return Math.max(1024, max - 64 * 1024);
  }

  private objectStore(): Promise<ObjectStore> {
    this.store ??= new Objm(jetstream(this.nc)).create(this.bucket, { ttl: OFFLOAD_TTL_NS }).catch((err) => {
      this.store = undefined;
      throw err;
    });
    return this.store;
  }

  async encode(value: unknown, headers: MsgHdrs = natsHeaders()): Promise<{ data: Uint8Array; headers: MsgHdrs }> {
    const data = this.encoder.encode(JSON.stringify(value));
    if (data.byteLength <= this.threshold()) return { data, headers };
    const name = randomBase62(24);
    const key = randomBytes(32);
    const sealed = new TextEncoder().encode(seal(key, Buffer.from(data), name));
    await (await this.objectStore()).putBlob({ name }, sealed);
    headers.set(PAYLOAD_REF, name);
    headers.set(PAYLOAD_KEY, key.toString('base64'));
    return { data: new Uint8Array(0), headers };
  }

  async decode(data: Uint8Array, headers: MsgHdrs | undefined): Promise<unknown> {
    const ref = headers?.get(PAYLOAD_REF);
    if (!ref) return data.byteLength === 0 ? undefined : JSON.parse(this.decoder.decode(data));
    const store = await this.objectStore();
    const blob = await store.getBlob(ref);
    if (!blob) throw new Error('offloaded payload expired');
    store.delete(ref).catch(() => undefined);
    const key = Buffer.from(headers?.get(PAYLOAD_KEY) ?? '', 'base64');
    return JSON.parse(this.decoder.decode(open(key, this.decoder.decode(blob), ref)));
  }
}
