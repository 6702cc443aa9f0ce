/**
 * The container packaging, checked statically (no Docker engine in CI): the entrypoint's
 * component mapping and argument passing, the Dockerfile's pins and the build context, and the
 * docker-compose start order. `docker build` itself is not exercised here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const ENTRYPOINT = join(ROOT, "deploy/docker/entrypoint.sh");

describe("entrypoint.sh", () => {
  let fakeBin = "";
  beforeAll(() => {
    // A stand-in `bun` that prints what it was asked to run: tests the mapping, not the services.
    fakeBin = mkdtempSync(join(tmpdir(), "entrypoint-test-"));
    writeFileSync(join(fakeBin, "bun"), '#!/bin/sh\necho "bun $*"\n');
    chmodSync(join(fakeBin, "bun"), 0o755);
  });
  afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

  const entrypoint = (...args: string[]) => {
    const result = Bun.spawnSync(["sh", ENTRYPOINT, ...args], {
      env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}` },
      stdout: "pipe",
      stderr: "pipe",
    });
    return { code: result.exitCode, stdout: result.stdout.toString().trim(), stderr: result.stderr.toString() };
  };

  test.each([
    ["gateway", "bun --max-http-header-size=65536 services/gateway/src/main.ts"],
    ["deployments", "bun services/deployments/src/main.ts"],
    ["vaults", "bun services/vaults/src/main.ts"],
    ["catalog", "bun services/catalog/src/main.ts"],
    ["scheduler", "bun services/scheduler/src/main.ts"],
    ["runtime", "bun services/runtime/src/main.ts"],
    ["sandbox-worker", "bun services/sandbox-worker/src/main.ts"],
    ["migrate", "bun deploy/bin/migrate.ts"],
  ])("%s runs %s", (component, expected) => {
    expect(entrypoint(component)).toEqual({ code: 0, stdout: expected, stderr: "" });
  });

  test("every program it can start exists, and package.json's scripts agree", async () => {
    const targets = ["gateway", "deployments", "vaults", "catalog", "scheduler", "migrate", "keys", "runtime", "sandbox-worker"].map((c) => entrypoint(c).stdout.split(" ").find((part) => part.endsWith(".ts"))!);
    for (const target of targets) expect(await Bun.file(join(ROOT, target)).exists()).toBe(true);
    const { scripts } = await Bun.file(join(ROOT, "package.json")).json();
    expect(scripts.migrate).toBe(`bun ${targets[5]}`);
    expect(scripts.keys).toBe(`bun ${targets[6]}`);
  });

  test("passes the remaining arguments on (keys CLI)", () => {
    expect(entrypoint("keys", "create", "--org", "org_1", "--workspace", "wrkspc_1", "--scope", "read_only").stdout).toBe(
      "bun services/gateway/src/cli/keys.ts create --org org_1 --workspace wrkspc_1 --scope read_only",
    );
  });

  test.each([["bogus"], [""], ["../../etc/passwd"]])("rejects %p with a usage message", (component) => {
    const result = entrypoint(component);
    expect(result.code).toBe(64);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`unknown component '${component}'`);
    expect(result.stderr).toContain("usage: <gateway|deployments|vaults|catalog|scheduler|runtime|sandbox-worker|migrate|keys>");
  });

  test("rejects a missing argument", () => {
    expect(entrypoint().code).toBe(64);
  });
});

describe("Dockerfile", () => {
  const dockerfile = () => Bun.file(join(ROOT, "deploy/docker/Dockerfile")).text();

  test("builds on the Bun version the project pins, in both stages", async () => {
    const text = await dockerfile();
    const pkg = await Bun.file(join(ROOT, "package.json")).json();
    expect(text).toContain(`ARG BUN_VERSION=${pkg.devDependencies["bun-types"]}`);
    const froms = [...text.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms).toEqual(["oven/bun:${BUN_VERSION}", "oven/bun:${BUN_VERSION}-slim"]);
  });

  test("installs production dependencies exactly as locked, and runs as a numeric non-root user", async () => {
    const text = await dockerfile();
    expect(text).toMatch(/RUN bun install --frozen-lockfile --production --omit=optional/);
    expect(text).toMatch(/^USER 1000:1000$/m);
    expect(text).toContain('ENTRYPOINT ["/bin/sh", "/app/deploy/docker/entrypoint.sh"]');
    expect(text).toContain('CMD ["gateway"]');
  });

  test("the runtime stage installs what the sandbox worker and its sandboxes need, before dropping to the runtime user", async () => {
    const text = await dockerfile();
    const runtime = text.slice(text.indexOf("AS runtime"));
    const install = /^RUN apt-get update -qq \\\n\s+&& apt-get install -y -qq --no-install-recommends \\\n\s+([^\\\n]+)\\$/m.exec(runtime);
    expect(install).not.toBeNull();
    // bubblewrap: the sandbox; util-linux: setpriv (a uid per session) and prlimit; the rest: the base agents' tools use.
    expect(install![1]!.trim().split(/\s+/)).toEqual(expect.arrayContaining(["bubblewrap", "util-linux", "git", "curl", "python3", "ripgrep", "jq", "ca-certificates"]));
    expect(runtime).toContain("rm -rf /var/lib/apt/lists/*");
    expect(runtime).toContain("ln -s bun /usr/local/bin/node");
    expect(runtime.indexOf("apt-get install")).toBeLessThan(runtime.indexOf("USER 1000:1000"));
    expect(text.slice(0, text.indexOf("AS runtime"))).not.toContain("apt-get");
  });

  test("the code the image runs imports only production dependencies (the image has no others)", async () => {
    const pkg = await Bun.file(join(ROOT, "package.json")).json();
    const production = new Set(Object.keys(pkg.dependencies ?? {}));
    const transpiler = new Bun.Transpiler({ loader: "ts" });
    const offenders: string[] = [];
    for (const dir of ["services", "shared", "deploy/bin"]) {
      for await (const file of new Bun.Glob("**/*.ts").scan({ cwd: join(ROOT, dir) })) {
        // Tests are not in the image; drizzle.config.ts is developer tooling (drizzle-kit).
        if (file.endsWith(".test.ts") || file.endsWith("drizzle.config.ts")) continue;
        const code = await Bun.file(join(ROOT, dir, file)).text();
        for (const { path } of transpiler.scanImports(code)) {
          // `@shared/…` is the tree's own shared/ (the tsconfig path alias the image copies), not a package.
          if (path.startsWith(".") || path.startsWith("@shared/") || path.startsWith("node:") || path === "bun" || path.startsWith("bun:")) continue;
          const name = path.startsWith("@") ? path.split("/").slice(0, 2).join("/") : path.split("/")[0]!;
          if (!production.has(name)) offenders.push(`${dir}/${file} imports ${path}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  test("the build context (.dockerignore) keeps what the image copies and drops the rest", async () => {
    const text = await dockerfile();
    const copied = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));
    expect(copied).toEqual(expect.arrayContaining(["package.json", "bun.lock", "patches", "tsconfig.json", "shared", "services", "deploy/bin"]));
    const ignored = (await Bun.file(join(ROOT, ".dockerignore")).text())
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    for (const path of copied) {
      const excludedBy = ignored.find((pattern) => path === pattern || path.startsWith(`${pattern}/`));
      expect(excludedBy === undefined ? path : `${path} (excluded by ${excludedBy})`).toBe(path);
    }
    expect(ignored).toEqual(expect.arrayContaining([".git", "**/node_modules", ".env", "test", "deploy/helm"]));
  });
});

describe("docker-compose.yml", () => {
  const APP = ["gateway", "deployments", "vaults", "catalog", "scheduler", "runtime", "sandbox-worker"];
  let compose: any;
  beforeAll(async () => {
    compose = Bun.YAML.parse(await Bun.file(join(ROOT, "deploy/docker-compose.yml")).text());
  });

  test("MySQL 8 and NATS with JetStream, both health-checked", () => {
    expect(compose.services.mysql.image).toMatch(/^mysql:8\./);
    expect(compose.services.mysql.healthcheck.test.join(" ")).toContain("mysqladmin ping");
    expect(compose.services.nats.command).toContain("-js");
    expect(compose.services.nats.command.join(" ")).not.toContain("max_payload");
    expect(compose.services.nats.healthcheck).toBeDefined();
  });

  test("migrate runs once after the infrastructure is healthy; the services wait for it", () => {
    const migrate = compose.services.migrate;
    expect(migrate.command).toEqual(["migrate"]);
    expect(migrate.restart).toBe("no");
    expect(migrate.depends_on.mysql.condition).toBe("service_healthy");
    for (const name of APP) {
      const service = compose.services[name];
      expect(service.command).toEqual([name]);
      expect(service.image).toBe(migrate.image);
      expect(service.depends_on.migrate.condition).toBe("service_completed_successfully");
      expect(service.environment.NODE_ENV).toBe("development");
      expect(service.healthcheck).toBeDefined();
    }
  });

  test("the sandbox worker's sessions never reach the stack's own services, and bubblewrap may make its namespaces", () => {
    const sandbox = compose.services["sandbox-worker"];
    const denied = String(sandbox.environment.SANDBOX_EGRESS_DENY_HOSTS).split(",");
    for (const service of ["mysql", "nats", "deployments", "vaults", "catalog", "scheduler", "runtime"]) expect(denied).toContain(service);
    // The gateway's API port stays open (the sessions' worker talks to it); its health port does not.
    expect(denied).toContain(`gateway:${compose.services.gateway.environment.HEALTH_PORT}`);
    expect(denied).not.toContain("gateway");
    expect(sandbox.security_opt).toEqual(["no-new-privileges:true", "seccomp=unconfined", "apparmor=unconfined", "systempaths=unconfined"]);
    // Only the sandbox worker is loosened.
    for (const name of Object.keys(compose.services).filter((n) => n !== "sandbox-worker")) {
      expect({ name, loosened: (compose.services[name].security_opt ?? []).filter((o: string) => o.includes("unconfined")) }).toEqual({ name, loosened: [] });
    }
  });

  test("the sandbox worker reaches the gateway by its service name, once it is healthy, with its sessions' directories on a tmpfs and no database password", () => {
    const sandbox = compose.services["sandbox-worker"];
    expect(sandbox.environment.SANDBOX_GATEWAY_URL).toBe(`http://gateway:${compose.services.gateway.environment.PORT}`);
    expect(sandbox.depends_on.gateway.condition).toBe("service_healthy");
    expect(sandbox.tmpfs.some((mount: string) => mount.startsWith(`${sandbox.environment.SANDBOX_ROOT}:`))).toBe(true);
    expect(Object.keys(sandbox.environment).filter((name) => name.startsWith("MYSQL"))).toEqual([]);
  });

  test("only the gateway is published, on 8080, with the development key enabled", () => {
    expect(compose.services.gateway.ports).toEqual(["8080:8080"]);
    expect(compose.services.gateway.environment.ALLOW_DEV_KEY).toBe("true");
    for (const name of ["mysql", "nats", "migrate", ...APP.filter((n) => n !== "gateway")]) {
      expect(compose.services[name].ports).toBeUndefined();
    }
  });
});
