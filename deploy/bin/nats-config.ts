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
 *   --format helm       the same as values of the official nats chart (`config.merge`), as
 *                       deploy/helm/agent-deployments-stack/values.yaml carries it.
 *   --into FILE         replaces the lines between `# BEGIN generated: nats:config` and
 *                       `# END generated: nats:config` in FILE (indented like the marker):
 *                       `bun run nats:config -- --format helm --into deploy/helm/agent-deployments-stack/values.yaml`
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import { CommonConfig } from '@shared/config/load-config';
import {
  helmNatsAuthorization,
  natsUsers,
  passwordEnvName,
  renderNatsAuthorization,
  type PasswordSource,
} from '@shared/bus/permissions';
import { BUS_IDENTITIES, type BusIdentity } from '@shared/bus/subject';

const { values } = parseArgs({
  options: {
    prefix: { type: 'string', default: process.env.BUS_PREFIX ?? '' },
    passwords: { type: 'string', default: 'env' },
    out: { type: 'string' },
    format: { type: 'string', default: 'conf' },
    into: { type: 'string' },
  },
});
const prefix = values.prefix ?? '';
const fail = (message: string): never => {
  console.error(`nats-config: ${message}`);
  process.exit(2);
};
if (!Value.Check(CommonConfig.BUS_PREFIX, prefix)) fail(`--prefix ${JSON.stringify(prefix)} is not a valid BUS_PREFIX`);
if (values.passwords !== 'env' && values.passwords !== 'bcrypt') fail('--passwords must be env or bcrypt');
if (values.format !== 'conf' && values.format !== 'helm') fail('--format must be conf or helm');
if (values.format === 'helm' && values.passwords !== 'env') fail('--format helm reads passwords from the environment only');

const hashes = new Map<BusIdentity, string>();
if (values.passwords === 'bcrypt') {
  for (const identity of BUS_IDENTITIES) {
    const name = passwordEnvName(identity);
    const password = process.env[name];
    if (!password) fail(`${name} is not set`);
    if (!Value.Check(CommonConfig.NATS_PASSWORD, password)) fail(`${name} must be letters and digits, starting with a letter, at least 16`);
    hashes.set(identity, await Bun.password.hash(password!, { algorithm: 'bcrypt', cost: 11 }));
  }
}
const source = (identity: BusIdentity): PasswordSource =>
  values.passwords === 'bcrypt' ? { value: hashes.get(identity)! } : { env: passwordEnvName(identity) };

const text =
  values.format === 'helm'
    ? Bun.YAML.stringify({ authorization: helmNatsAuthorization(prefix) }, null, 2) + '\n'
    : renderNatsAuthorization(natsUsers(prefix, source));
if (values.into) {
  const file = readFileSync(values.into, 'utf8');
  const match = /^( *)# BEGIN generated: nats:config.*\n[\s\S]*?^ *# END generated: nats:config.*$/m.exec(file);
  if (!match) fail(`${values.into} has no "# BEGIN generated: nats:config" ... "# END generated: nats:config" section`);
  const indent = match![1]!;
  const [begin] = match![0].split('\n');
  const end = match![0].split('\n').at(-1)!;
  const body = text.trimEnd().split('\n').map((line) => indent + line).join('\n');
  writeFileSync(values.into, file.replace(match![0], `${begin}\n${body}\n${end}`));
} else if (values.out) writeFileSync(values.out, text, { mode: 0o600 });
else process.stdout.write(text);
