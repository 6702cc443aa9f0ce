/**
 * `bun run nats:config -- [--prefix P] [--passwords env|bcrypt] [--out FILE]`
 *
 * Prints the nats-server `authorization { users = [...] }` block for one install: one user per
 * service (`<service>`, or `<P>-<service>` with a BUS_PREFIX), each with the subject permissions
 * generated from the subject declarations (shared/bus/permissions.ts). Include it in the server's
 * configuration (`include ./agents-auth.conf`) and give each service its NATS_USER/NATS_PASSWORD.
 *
 *   --passwords env     (default) `password: $NATS_PASSWORD_GATEWAY` ...: the server reads each
 *                       password from its own environment; the file holds no secret.
 *   --passwords bcrypt  reads NATS_PASSWORD_<SERVICE> from this command's environment and writes
 *                       their bcrypt hashes instead.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CommonConfig } from '../../shared/config/load-config';
import { natsUsers, passwordEnvName, renderNatsAuthorization, type PasswordSource } from '../../shared/bus/permissions';
import { BUS_IDENTITIES, type BusIdentity } from '../../shared/bus/subject';

const { values } = parseArgs({
  options: {
    prefix: { type: 'string', default: process.env.BUS_PREFIX ?? '' },
    passwords: { type: 'string', default: 'env' },
    out: { type: 'string' },
  },
});
const prefix = values.prefix ?? '';
const fail = (message: string): never => {
  console.error(`nats-config: ${message}`);
  process.exit(2);
};
if (!new RegExp(CommonConfig.BUS_PREFIX.pattern).test(prefix)) fail(`--prefix ${JSON.stringify(prefix)} is not a valid BUS_PREFIX`);
if (values.passwords !== 'env' && values.passwords !== 'bcrypt') fail('--passwords must be env or bcrypt');

const passwordPattern = new RegExp(CommonConfig.NATS_PASSWORD.pattern);
const hashes = new Map<BusIdentity, string>();
if (values.passwords === 'bcrypt') {
  for (const identity of BUS_IDENTITIES) {
    const name = passwordEnvName(identity);
    const password = process.env[name];
    if (!password) fail(`${name} is not set`);
    if (!passwordPattern.test(password!)) fail(`${name} must be letters and digits, starting with a letter, at least 16`);
    hashes.set(identity, await Bun.password.hash(password!, { algorithm: 'bcrypt', cost: 11 }));
  }
}
const source = (identity: BusIdentity): PasswordSource =>
  values.passwords === 'bcrypt' ? { value: hashes.get(identity)! } : { env: passwordEnvName(identity) };

const text = renderNatsAuthorization(natsUsers(prefix, source));
if (values.out) writeFileSync(values.out, text, { mode: 0o600 });
else process.stdout.write(text);
