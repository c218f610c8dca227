// VetDx server: one Node process, one port. Prepares the database (migrations, catalogue, demo
// accounts), mounts the embedded OpenID provider at /idp, answers /healthz and /readyz, and hands
// everything else to Next.js. Every request gets a request id (echoed, and on each of its log
// lines), the security headers, and the per-IP rate limit of its surface.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import type Provider from "oidc-provider";
import { DataDirectoryBusyError } from "@/db/data-dir-lock";
import { ConfigurationError, getEnv, type Env } from "@/lib/env";
import { accessLogger, logger, requestContext } from "@/lib/logger";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "@/lib/http/database-unavailable";
import { loggablePath, requestIdFrom } from "@/lib/http/request-id";
import { stampClientAddress } from "@/lib/http/client-address";
import { applySecurityHeaders, securityHeaderDefaults, withScriptNonce } from "@/lib/http/security-headers";
import { limitByClientIp } from "@/lib/http/surface-rate-limits";
import { prepareDatabase, type PreparedDatabase } from "@/lib/server/prepare-database";
import { loadLexicon } from "@/lib/ai/lexicon";
import { getLexiconIndex } from "@/lib/ai/local/lexicon-index";
import { loadKnowledgeBase } from "@/lib/diagnosis/knowledge-base";
import { startAdminSocket } from "@/lib/admin/socket";
import { createIdentityProvider } from "@/lib/auth/idp/provider";
import { followIdentityChanges } from "@/lib/auth/identity-cache";
import { handleInteraction } from "@/lib/auth/idp/interactions";
import { componentPageHeaders } from "@/lib/sessions/component-headers";
import { inngestConfigured } from "@/inngest/client";
import { PURGE_INTERVAL_MINUTES, runPurges } from "@/inngest/functions/purge-expired-records";
import { inlineRunner } from "@/inngest/runner";
import {
  ensureDemoAccounts,
  demoCredentialsPath,
  type DemoCredentials,
} from "@/lib/veterinarians/ensure-demo-accounts";

const projectRoot = path.dirname(fileURLToPath(import.meta.url));
const startedAt = Date.now();

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

async function main() {
  const env = getEnv();
  const dev = env.NODE_ENV === "development";
  const database: PreparedDatabase = await prepareDatabase(env, "server");
  const { handle } = database;
  // The extractor's lexicon and the ranker's knowledge base are built now, not by the first case
  // (the caches are shared with the Next.js bundles through globalThis).
  getLexiconIndex(await loadLexicon(handle.db));
  await loadKnowledgeBase(handle.db);
  const demo = env.DEMO_SEED
    ? await ensureDemoAccounts(handle.db, { dataDir: env.DATA_DIR, appUrl: env.APP_URL })
    : undefined;

  // Other processes (instances, the admin CLI) announce revoked clients; forget cached identities
  // then. Without LISTEN (e.g. behind a transaction-mode pooler) cached identities live 10 s at most.
  const unfollowIdentityChanges = await followIdentityChanges(handle).catch((error: unknown) => {
    logger.error({ err: error }, "cannot follow identity changes; revocations take up to 10 s elsewhere");
    return async () => {};
  });

  const provider: Provider | undefined = env.embeddedIdentityProvider
    ? await createIdentityProvider(handle.db, env)
    : undefined;
  const providerCallback = provider?.callback();

  const app = next({ dev, dir: projectRoot, hostname: "localhost", port: env.PORT });
  const nextHandler = app.getRequestHandler();
  await app.prepare();

  let ready = true;
  const securityHeaders = securityHeaderDefaults({ appUrl: env.APP_URL, authUrl: env.AUTH_URL, dev });
  const handleRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    // Route handlers read the caller's address from this header; never trust one sent by the client.
    const ip = stampClientAddress(req, env);
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    try {
      if (pathname === "/healthz") return sendJson(res, 200, { status: "ok" });
      if (pathname === "/readyz") {
        if (!ready) return sendJson(res, 503, { status: "stopping" }, { "retry-after": "5" });
        try {
          await handle.ping();
          return sendJson(res, 200, { status: "ready", database: handle.kind });
        } catch {
          return sendJson(res, 503, { status: "database unreachable" }, { "retry-after": "5" });
        }
      }
      if (await limitByClientIp(req.method ?? "GET", pathname, ip, res)) return;
      if (provider && providerCallback && (pathname === "/idp" || pathname.startsWith("/idp/"))) {
        if (pathname !== "/idp/oauth2/token") {
          if (await handleInteraction(provider, handle.db, req, res, pathname)) return;
          // oidc-provider computes its URLs from originalUrl minus url: tell it where it is mounted.
          Object.assign(req, { originalUrl: req.url });
          req.url = req.url!.slice("/idp".length) || "/";
          return void providerCallback(req, res);
        }
      }
      if (req.method === "GET" || req.method === "HEAD") {
        // The component page's framing policy and status depend on its session (lib/sessions/component-headers.ts).
        const componentPage = await componentPageHeaders(handle.db, pathname);
        if (componentPage) {
          for (const [name, value] of Object.entries(componentPage.headers)) res.setHeader(name, value);
          res.statusCode = componentPage.status;
          // Next.js takes the nonce for the page's scripts from the request's policy.
          req.headers["content-security-policy"] = componentPage.headers["content-security-policy"];
        }
      }
      await nextHandler(req, res);
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        logger.warn({ err: error, path: loggablePath(req.url) }, "database unreachable");
        if (!res.headersSent)
          return sendJson(
            res,
            503,
            { error: "unavailable", error_description: "The database cannot be reached; try again shortly" },
            { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
          );
      } else logger.error({ err: error, path: loggablePath(req.url) }, "request failed");
      if (!res.headersSent)
        sendJson(res, 500, { error: "internal_error", error_description: "Something went wrong" });
      else res.end();
    }
  };
  const server = http.createServer((req, res) => {
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    req.headers["x-request-id"] = requestId;
    res.setHeader("x-request-id", requestId);
    applySecurityHeaders(res, withScriptNonce(req, securityHeaders));
    const started = process.hrtime.bigint();
    // Before the identity-provider branch rewrites req.url.
    const loggedPath = loggablePath(req.url);
    res.on("finish", () =>
      accessLogger.info(
        {
          request_id: requestId,
          event: "request",
          method: req.method,
          path: loggedPath,
          status: res.statusCode,
          duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        "request finished",
      ),
    );
    void requestContext.run({ requestId }, () => handleRequest(req, res));
  });

  const adminSocket = env.DATABASE_URL ? undefined : startAdminSocket(env.DATA_DIR, handle.db);
  // Housekeeping (expired sessions, tokens, unused clients): an Inngest cron function where Inngest
  // is configured, else this process on a timer; the same purges either way.
  const purge = inngestConfigured()
    ? undefined
    : setInterval(() => void runPurges(handle.db), PURGE_INTERVAL_MINUTES * 60_000);
  purge?.unref();

  // Without Inngest, this process runs the pipeline: pick up what a crash or restart left unfinished.
  const runner = inngestConfigured() ? undefined : inlineRunner();
  const resumed = runner ? await runner.resumeUnfinished() : 0;
  if (resumed > 0) logger.info({ resumed }, "resuming unfinished cases");

  server.listen(env.PORT, env.HOST, () => printBanner(env, database, demo));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ready = false;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    adminSocket?.close();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Let running cases finish their current step; any left are resumed on the next start.
    await Promise.race([runner?.idle(), new Promise((resolve) => setTimeout(resolve, 5000))]);
    await unfollowIdentityChanges().catch(() => {});
    await handle.close().catch(() => {});
    database.release();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

function printBanner(env: Env, database: PreparedDatabase, demo: DemoCredentials | undefined) {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const lines = [
    "",
    `VetDx ready on ${env.APP_URL} in ${seconds}s (database: ${database.handle.kind}${database.handle.kind === "pglite" ? ` in ${env.DATA_DIR}` : ""})`,
    `  Dashboard              ${env.APP_URL}/`,
    `  REST API               ${env.APP_URL}/v1   (OpenAPI: ${env.APP_URL}/v1/openapi.json)`,
    `  Components             ${env.APP_URL}/components/diagnostics/<session_id>`,
    `  MCP server             ${env.APP_URL}/mcp   (legacy SSE: ${env.APP_URL}/sse)`,
    `  Identity provider      ${env.AUTH_URL}${env.embeddedIdentityProvider ? " (embedded)" : " (external)"}`,
    `  M2M token endpoint     ${env.embeddedIdentityProvider ? `${env.AUTH_URL}/oauth2/token` : "at the external provider"}`,
    `  Health                 ${env.APP_URL}/healthz  ${env.APP_URL}/readyz`,
    `  Case pipeline          ${inngestConfigured() ? "Inngest" : "inline runner in this process"}; extractor ${env.AI_MODEL ?? "local clinical-text extractor"}`,
    `  Catalogue              ${Object.entries(database.catalogue.counts)
      .map(([name, n]) => `${n} ${name.replaceAll("_", " ")}`)
      .join(", ")}${database.catalogue.loaded ? " (loaded)" : ""}`,
  ];
  if (demo) {
    lines.push(
      "",
      "  First start: demo accounts created (shown once; also in " + demoCredentialsPath(env.DATA_DIR) + ")",
      `    Vet sign-in          ${demo.vet.email} / ${demo.vet.password}`,
      `    Machine client       ${demo.client.client_id} / ${demo.client.client_secret}`,
      `    Try                  curl -u '${demo.client.client_id}:${demo.client.client_secret}' -d grant_type=client_credentials ${env.AUTH_URL}/oauth2/token`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigurationError) {
    process.stderr.write(`${error.message}\n`);
  } else if (error instanceof DataDirectoryBusyError) {
    process.stderr.write(
      `Another VetDx process (pid ${error.holderPid}) holds ${error.dataDir}. Stop it, or start this one with another DATA_DIR.\n`,
    );
  } else {
    process.stderr.write(
      `VetDx failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
