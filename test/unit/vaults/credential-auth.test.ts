import { describe, expect, test } from 'bun:test';
import { DecryptionError } from '@shared/crypto/aead';
import { generateDataKey, sealSecret } from '@shared/crypto/envelope';
import { describeTarget, mergeAuthUpdate, prepareAuth } from '../../../services/vaults/src/domain/credential-auth';
import { foundVaultCredential } from '../../../services/vaults/src/domain/not-found';
import { openAuth, sealAuth, UnreadableCredential } from '../../../services/vaults/src/domain/sealed-auth';

const now = new Date('2026-01-01T00:00:00.000Z');
const bearer = { type: 'static_bearer' as const, mcp_server_url: 'https://mcp.example/sse', token: 'secret-token' };
const envVar = { type: 'environment_variable' as const, secret_name: 'API_KEY', secret_value: 'v', networking: { type: 'limited' as const, allowed_hosts: ['API.Example.com'] } };
const oauth = {
  type: 'mcp_oauth' as const,
  mcp_server_url: 'https://mcp.example/',
  access_token: 'at',
  expires_at: '2026-06-01T00:00:00Z',
  refresh: {
    refresh_token: 'rt',
    client_id: 'c',
    token_endpoint: 'https://auth.example/token',
    token_endpoint_auth: { type: 'client_secret_post' as const, client_secret: 'cs' },
  },
};

describe('credential auth rules', () => {
  test('static bearer: the token is sealed, never shown; the target is the MCP server', () => {
    const prepared = prepareAuth(bearer, now);
    expect(prepared.shown).toEqual({ type: 'static_bearer', mcp_server_url: bearer.mcp_server_url });
    expect(prepared.sealed).toEqual(bearer);
    expect(prepared.target).toBe('mcp:https://mcp.example/sse');
    expect(describeTarget(prepared.target)).toBe('MCP server https://mcp.example/sse');
  });

  test('environment variable: hosts are lower-cased, injection defaults to both, and one of them is required', () => {
    const prepared = prepareAuth(envVar, now);
    expect(prepared.shown).toEqual({
      type: 'environment_variable',
      secret_name: 'API_KEY',
      networking: { type: 'limited', allowed_hosts: ['api.example.com'] },
      injection_location: { body: true, header: true },
    });
    expect(describeTarget(prepared.target)).toBe('environment variable API_KEY');
    expect(() => prepareAuth({ ...envVar, injection_location: { body: false, header: false } }, now)).toThrow(
      'auth.injection_location: at least one of body or header must be enabled',
    );
  });

  test('mcp oauth: expiry is normalized and must be in the future at creation; secrets stay sealed', () => {
    const prepared = prepareAuth(oauth, now);
    expect(prepared.shown).toEqual({
      type: 'mcp_oauth',
      mcp_server_url: oauth.mcp_server_url,
      expires_at: '2026-06-01T00:00:00.000Z',
      refresh: { client_id: 'c', token_endpoint: 'https://auth.example/token', token_endpoint_auth: { type: 'client_secret_post' }, resource: null, scope: null },
    });
    expect(JSON.stringify(prepared.shown)).not.toContain('cs');
    expect(() => prepareAuth({ ...oauth, expires_at: '2025-01-01T00:00:00Z' }, now)).toThrow('auth.expires_at: must be in the future');
    expect(prepareAuth({ ...oauth, expires_at: '2025-01-01T00:00:00Z' }, now, { expiryMustBeFuture: false, mcpUrls: null }).shown).toMatchObject({
      expires_at: '2025-01-01T00:00:00.000Z',
    });
    expect(() => prepareAuth({ ...oauth, expires_at: 'tomorrow' }, now)).toThrow('auth.expires_at: must be an RFC 3339 timestamp');
    // Issue 24: https only (plain http was accepted), and not the installation's own network.
    expect(() => prepareAuth({ ...oauth, mcp_server_url: 'ftp://x' }, now)).toThrow('auth.mcp_server_url: must be an absolute https:// URL');
    expect(() => prepareAuth({ ...oauth, mcp_server_url: 'http://mcp.example/sse' }, now)).toThrow('auth.mcp_server_url: must be an absolute https:// URL');
    expect(() => prepareAuth({ ...bearer, mcp_server_url: 'https://169.254.169.254/latest' }, now)).toThrow('auth.mcp_server_url: must not name');
    const allowed = { expiryMustBeFuture: true, mcpUrls: { allowPrivate: true } };
    expect(prepareAuth({ ...bearer, mcp_server_url: 'http://127.0.0.1:9000/mcp' }, now, allowed).shown).toMatchObject({ mcp_server_url: 'http://127.0.0.1:9000/mcp' });
  });

  test('an update keeps omitted fields and cannot change the kind', () => {
    expect(mergeAuthUpdate(bearer, { type: 'static_bearer' })).toEqual(bearer);
    expect(mergeAuthUpdate(bearer, { type: 'static_bearer', token: 'new' })).toMatchObject({ token: 'new' });
    expect(() => mergeAuthUpdate(bearer, { type: 'environment_variable' })).toThrow(
      "auth.type: must be static_bearer, the credential's type, which cannot change",
    );
    const stored = prepareAuth(envVar, now).sealed;
    expect(mergeAuthUpdate(stored, { type: 'environment_variable', injection_location: { body: false } })).toMatchObject({
      injection_location: { body: false, header: true },
    });
  });

  test('an oauth update keeps the stored endpoint method, and an empty scope clears it', () => {
    const stored = prepareAuth({ ...oauth, refresh: { ...oauth.refresh, scope: 'read' } }, now).sealed;
    const merged = mergeAuthUpdate(stored, {
      type: 'mcp_oauth',
      refresh: { scope: '', token_endpoint_auth: { type: 'client_secret_basic', client_secret: 'new' } },
    });
    expect(merged).toMatchObject({ refresh: { scope: null, token_endpoint_auth: { type: 'client_secret_post', client_secret: 'new' } } });
    const withoutRefresh = prepareAuth({ ...oauth, refresh: undefined }, now).sealed;
    expect(() => mergeAuthUpdate(withoutRefresh, { type: 'mcp_oauth', refresh: { refresh_token: 'x' } })).toThrow(
      'auth.refresh: the credential has no refresh configuration to update',
    );
  });
});

describe('sealed auth', () => {
  const dataKey = generateDataKey();

  test('seals and opens bound to the credential id; the secret is not in the sealed text', () => {
    const sealed = sealAuth(dataKey, bearer, 'vcrd_1');
    expect(sealed).not.toContain('secret-token');
    expect(openAuth(dataKey, sealed, 'vcrd_1', 'static_bearer')).toEqual(bearer);
    expect(() => openAuth(dataKey, sealed, 'vcrd_2', 'static_bearer')).toThrow(DecryptionError);
    expect(() => openAuth(generateDataKey(), sealed, 'vcrd_1', 'static_bearer')).toThrow(DecryptionError);
  });

  test('an authentic ciphertext of the wrong kind or shape is unreadable, without quoting it', () => {
    const sealed = sealAuth(dataKey, bearer, 'vcrd_1');
    expect(() => openAuth(dataKey, sealed, 'vcrd_1', 'mcp_oauth')).toThrow(UnreadableCredential);
    expect(() => openAuth(dataKey, sealSecret(dataKey, 'not json', 'vcrd_1'), 'vcrd_1', 'static_bearer')).toThrow('sealed auth is not JSON');
    expect(() => openAuth(dataKey, sealSecret(dataKey, '{"type":"static_bearer"}', 'vcrd_1'), 'vcrd_1', 'static_bearer')).toThrow(
      'sealed auth does not match the credential',
    );
  });
});

describe('not found through the vault', () => {
  test('a missing vault is reported before a missing credential', () => {
    expect(() => foundVaultCredential({}, 'vlt_1', 'vcrd_1')).toThrow("vault 'vlt_1' not found");
    expect(() => foundVaultCredential({ vault: {} as never }, 'vlt_1', 'vcrd_1')).toThrow("credential 'vcrd_1' not found");
  });
});
