import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { randomBytes } from 'node:crypto';
import { open, seal } from '../crypto/aead';
import { randomBase62 } from '../ids/ids';
import type { BusIdentity } from './subject';

/**
 * The one identity that creates the payload bucket and may change its stream's settings. Any
 * identity allowed to update that stream could add other services' request subjects to it and
 * read those messages back, one-off keys and all (a vault credential was read that way from the
 * sandbox worker's identity); no other identity may create or update it (shared/bus/permissions.ts).
 */
export const PAYLOAD_BUCKET_OWNER: BusIdentity = 'catalog';
/**
 * The identities whose subjects may carry a payload over the server's max_payload (files, agent
 * definitions, deployment and session bodies, event pages): only they put and get the bucket's
 * objects. The scheduler (fire requests) and the sandbox worker (work claims) exchange small
 * messages only and have no access to the bucket at all.
 */
export const PAYLOAD_BUCKET_USERS: readonly BusIdentity[] = ['gateway', 'catalog', 'deployments', 'vaults', 'runtime'];

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

  /**
   * `createsBucket`: this connection's identity is PAYLOAD_BUCKET_OWNER (or the bus has no
   * per-service permissions, as in most tests). Otherwise the bucket is only opened; until its
   * owner has created it once, an offloaded payload fails and the next one tries again.
   */
  constructor(
    private readonly nc: NatsConnection,
    private readonly bucket: string,
    private readonly options: { createsBucket: boolean } = { createsBucket: true },
  ) {}

  private threshold(): number {
    const max = this.nc.info?.max_payload ?? 1024 * 1024;
    return Math.max(1024, max - 64 * 1024);
  }

  private objectStore(): Promise<ObjectStore> {
    if (this.store) return this.store;
    const objm = new Objm(jetstream(this.nc));
    const create = () => objm.create(this.bucket, { ttl: OFFLOAD_TTL_NS });
    // A bus without per-service permissions (development, most tests) lets anyone create it;
    // with them, a non-owner's create is refused and the error says the bucket is missing.
    const store = this.options.createsBucket ? create() : objm.open(this.bucket).catch(create);
    this.store = store.catch((err) => {
      this.store = undefined;
      throw err;
    });
    return this.store;
  }

  /** Opens (the owner: creates or brings up to date) the bucket now: its owner does at start, so it exists before anyone offloads. */
  async ensureBucket(): Promise<void> {
    await this.objectStore();
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
