// The identity provider's sign-in interaction, served by server.ts under /idp/interaction/:uid:
// GET shows the form, POST …/login checks the password (argon2id, rate limited), …/abort cancels.
import type { IncomingMessage, ServerResponse } from "node:http";
import { and, eq, sql } from "drizzle-orm";
import type Provider from "oidc-provider";
import type { Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { dummyPasswordHash, verifyPassword } from "@/lib/auth/passwords";
import {
  checkRateLimit,
  rateLimitHeaders,
  refundRateLimit,
  resetRateLimit,
  type LimiterSpec,
} from "@/lib/http/rate-limit";
import { logger } from "@/lib/logger";
import { escapeHtml } from "./provider";
import { IDENTITY_PROVIDER_PAGE_HEADERS, renderIdentityProviderPage } from "./pages";

const MAX_FORM_BYTES = 4096;
// Failed sign-ins are limited per client address and per address and account, never per account
// alone: a limit per account would let anyone lock a vet out by guessing wrong on purpose.
const LOGIN_FAILURES_PER_IP: LimiterSpec = {
  name: "login-ip",
  points: 20,
  durationSeconds: 900,
  blockSeconds: 900,
};
const LOGIN_FAILURES_PER_IP_AND_ACCOUNT: LimiterSpec = {
  name: "login-ip-account",
  points: 5,
  durationSeconds: 900,
  blockSeconds: 900,
};

function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...IDENTITY_PROVIDER_PAGE_HEADERS, ...headers });
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded/i.test(req.headers["content-type"] ?? "")) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function loginForm(uid: string, clientName: string, options: { error?: string; email?: string } = {}) {
  const error = options.error ? `<p class="alert" role="alert">${escapeHtml(options.error)}</p>` : "";
  return renderIdentityProviderPage({
    title: "Sign in",
    body: `<p class="muted">to continue to <strong>${escapeHtml(clientName)}</strong></p>
${error}
<form method="post" action="/idp/interaction/${escapeHtml(uid)}/login" class="stack">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${escapeHtml(options.email ?? "")}" ${options.email ? "" : "autofocus"}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024" ${options.email ? "autofocus" : ""}>
<button type="submit" class="button">Sign in</button>
</form>
<p class="muted small"><a href="/idp/interaction/${escapeHtml(uid)}/abort">Cancel</a></p>`,
  });
}

function expiredPage(res: ServerResponse) {
  send(
    res,
    400,
    renderIdentityProviderPage({
      title: "Sign-in expired",
      body: '<p>This sign-in page has expired or was opened in another browser.</p><p class="muted">Go back to the app and start signing in again.</p>',
    }),
  );
}

async function clientNameOf(provider: Provider, clientId: unknown): Promise<string> {
  const client = typeof clientId === "string" ? await provider.Client.find(clientId) : undefined;
  return (client?.clientName as string | undefined) ?? "VetDx";
}

function remoteAddress(req: IncomingMessage): string {
  return String(req.headers["x-vetdx-client-ip"] ?? req.socket.remoteAddress ?? "unknown");
}

/** Handles /idp/interaction/* ; returns false when the path is not an interaction route. */
export async function handleInteraction(
  provider: Provider,
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<boolean> {
  const match = /^\/idp\/interaction\/([A-Za-z0-9_-]{1,128})(\/login|\/abort)?$/.exec(pathname);
  if (!match) return false;
  const [, uid, action] = match;
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    expiredPage(res);
    return true;
  }
  if (details.uid !== uid) {
    expiredPage(res);
    return true;
  }
  const clientName = await clientNameOf(provider, details.params.client_id);

  if (!action && req.method === "GET") {
    if (details.prompt.name !== "login") {
      send(
        res,
        400,
        renderIdentityProviderPage({
          title: "Cannot continue",
          body: "<p>This application needs a consent step VetDx does not offer.</p>",
        }),
      );
      return true;
    }
    send(res, 200, loginForm(uid!, clientName));
    return true;
  }

  if (action === "/abort" && req.method === "GET") {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The vet cancelled signing in" },
      { mergeWithLastSubmission: false },
    );
    return true;
  }

  if (action === "/login" && req.method === "POST") {
    const form = await readForm(req);
    const email = (form?.get("email") ?? "").trim().toLowerCase().slice(0, 254);
    const password = form?.get("password") ?? "";
    const ip = remoteAddress(req);
    const ipAndAccount = JSON.stringify([ip, email]);
    // Every attempt counts before its password is checked, so parallel guesses cannot all get past
    // the budget; a successful one gives its points back.
    const perIp = await checkRateLimit(LOGIN_FAILURES_PER_IP, ip);
    const blocked = perIp.limited ? [perIp] : [];
    if (!perIp.limited) {
      const perIpAndAccount = await checkRateLimit(LOGIN_FAILURES_PER_IP_AND_ACCOUNT, ipAndAccount);
      if (perIpAndAccount.limited) blocked.push(perIpAndAccount);
    }
    if (blocked.length) {
      const headers = rateLimitHeaders(...blocked);
      const wait = Number(headers["retry-after"]);
      send(
        res,
        429,
        loginForm(uid!, clientName, {
          error: `Too many failed attempts. Try again in ${Math.ceil(wait / 60)} minutes.`,
          email,
        }),
        headers,
      );
      return true;
    }
    const [vet] = email
      ? await db
          .select()
          .from(veterinarians)
          .where(and(sql`lower(${veterinarians.email}) = ${email}`, eq(veterinarians.kind, "human")))
      : [];
    const ok =
      vet && !vet.disabledAt
        ? await verifyPassword(vet.passwordHash, password)
        : await verifyPassword(await dummyPasswordHash(), password).then(() => false);
    if (!ok || !vet) {
      logger.info({ event: "login_failed", ip }, "failed sign-in");
      send(res, 401, loginForm(uid!, clientName, { error: "Email or password is incorrect.", email }));
      return true;
    }
    await refundRateLimit(LOGIN_FAILURES_PER_IP, ip);
    await resetRateLimit(LOGIN_FAILURES_PER_IP_AND_ACCOUNT, ipAndAccount);
    logger.info({ event: "login_succeeded", veterinarian_id: vet.id }, "vet signed in");
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: vet.id } },
      { mergeWithLastSubmission: false },
    );
    return true;
  }

  send(
    res,
    405,
    renderIdentityProviderPage({ title: "Not allowed", body: "<p>That request is not allowed here.</p>" }),
    { allow: "GET, POST" },
  );
  return true;
}
