import type Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { describeEachSdk } from "../support/sdk";
import { Stack } from "../support/stack";
import { uniqueSecret } from "../support/vaults";

let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ services: ["vaults"] });
});
afterAll(() => stack?.stop());

describeEachSdk("the official SDK against the vault routes", (sdk) => {
  let client: Anthropic;
  const sent: Array<{ method: string; url: URL; headers: Headers }> = [];
  beforeAll(async () => {
    client = new sdk.Anthropic({
      apiKey: (await stack.createKey()).secret,
      baseURL: stack.url,
      maxRetries: 0,
      fetch: async (input: string | URL | Request, init?: RequestInit) => {
        const request =
          input instanceof Request
            ? new Request(input, init)
            : new Request(String(input), init);
        sent.push({
          method: request.method,
          url: new URL(request.url),
          headers: request.headers,
        });
        return fetch(request);
      },
    });
  });

  test("vaults: create, retrieve, update, list (auto-paginated), archive, delete", async () => {
    const created = await client.beta.vaults.create({
      display_name: "SDK vault",
      metadata: { via: "sdk" },
    });
    expect(created).toMatchObject({
      type: "vault",
      display_name: "SDK vault",
      metadata: { via: "sdk" },
      archived_at: null,
    });
    expect(await client.beta.vaults.retrieve(created.id)).toEqual(created);

    const updated = await client.beta.vaults.update(created.id, {
      metadata: { via: null, env: "test" },
    });
    expect(updated.metadata).toEqual({ env: "test" });

    for (let i = 0; i < 4; i++)
      await client.beta.vaults.create({ display_name: `more ${i}` });
    const seen: string[] = [];
    for await (const vault of client.beta.vaults.list({ limit: 2 }))
      seen.push(vault.id);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toContain(created.id);
    expect(
      sent.filter((r) => r.method === "GET" && r.url.pathname === "/v1/vaults")
        .length,
    ).toBe(3);

    const archived = await client.beta.vaults.archive(seen[0]);
    expect(archived.archived_at).not.toBeNull();
    const withArchived: string[] = [];
    for await (const vault of client.beta.vaults.list({
      include_archived: true,
    }))
      withArchived.push(vault.id);
    expect(withArchived).toContain(seen[0]);

    expect(await client.beta.vaults.delete(created.id)).toEqual({
      type: "vault_deleted",
      id: created.id,
    });
    // APIPromise only sends on then(), so it is awaited rather than handed to expect().rejects
    const gone = await client.beta.vaults.retrieve(created.id).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(gone).toBeInstanceOf(sdk.Anthropic.NotFoundError);
  });

  test("credentials: create, list, retrieve, update, archive, delete; the secret never comes back", async () => {
    const vault = await client.beta.vaults.create({
      display_name: "SDK credentials",
    });
    const token = uniqueSecret("sdk-bearer");
    const value = uniqueSecret("sdk-env");
    const bearer = await client.beta.vaults.credentials.create(vault.id, {
      display_name: "bearer",
      auth: {
        type: "static_bearer",
        token,
        mcp_server_url: "https://example-server.modelcontextprotocol.io/sse",
      },
    });
    expect(bearer).toMatchObject({
      type: "vault_credential",
      vault_id: vault.id,
      auth: {
        type: "static_bearer",
        mcp_server_url: "https://example-server.modelcontextprotocol.io/sse",
      },
    });
    const env = await client.beta.vaults.credentials.create(vault.id, {
      auth: {
        type: "environment_variable",
        secret_name: "API_TOKEN",
        secret_value: value,
        networking: { type: "unrestricted" },
      },
    });
    expect(env.auth).toEqual({
      type: "environment_variable",
      secret_name: "API_TOKEN",
      networking: { type: "unrestricted" },
      injection_location: { body: true, header: true },
    });

    const listed = [];
    for await (const credential of client.beta.vaults.credentials.list(
      vault.id,
      { limit: 1 },
    ))
      listed.push(credential);
    expect(listed.map((c) => c.id).sort()).toEqual([bearer.id, env.id].sort());
    expect(
      await client.beta.vaults.credentials.retrieve(bearer.id, {
        vault_id: vault.id,
      }),
    ).toMatchObject(bearer);

    const rotated = await client.beta.vaults.credentials.update(bearer.id, {
      vault_id: vault.id,
      display_name: "rotated bearer",
      auth: { type: "static_bearer", token: uniqueSecret("sdk-rotated") },
    });
    expect(rotated).toMatchObject({
      id: bearer.id,
      display_name: "rotated bearer",
      auth: bearer.auth,
    });

    const archived = await client.beta.vaults.credentials.archive(env.id, {
      vault_id: vault.id,
    });
    expect(archived.archived_at).not.toBeNull();
    expect(
      await client.beta.vaults.credentials.delete(bearer.id, {
        vault_id: vault.id,
      }),
    ).toEqual({
      type: "vault_credential_deleted",
      id: bearer.id,
    });
    const text = JSON.stringify([bearer, env, listed, rotated, archived]);
    expect(text).not.toContain(token);
    expect(text).not.toContain(value);
  });

  test("the SDK sends its version's markers and the managed-agents beta header on every vault call", async () => {
    const vaultCalls = sent.filter((r) =>
      r.url.pathname.startsWith("/v1/vaults"),
    );
    expect(vaultCalls.length).toBeGreaterThan(10);
    for (const call of vaultCalls) {
      expect(call.url.searchParams.getAll("beta")).toEqual(
        sdk.sendsBetaQuery ? ["true"] : [],
      );
      expect(call.headers.get("anthropic-beta")?.split(",")).toContain(
        "managed-agents-2026-04-01",
      );
      expect(call.headers.get("anthropic-version")).toBe(sdk.apiVersion);
    }
  });
});
