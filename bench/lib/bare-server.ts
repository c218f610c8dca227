// The benchmark's upper baseline for GET /v1/cases/{id}: node:http + jose + postgres.js, no
// framework. It does what the app does for that request — verify the RS256 JWT (issuer, audience,
// expiry) against the identity provider's keys, resolve the machine client to its veterinarian,
// check the scope, read the case of that veterinarian, answer JSON with an ETag — and nothing else
// (no rate limits, logs, security headers or problem+json). Configured by environment:
// PORT, DATABASE_URL, JWKS_URL, ISSUER, AUDIENCE, POOL (default 10).
import http from "node:http";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import postgres from "postgres";

const env = process.env;
const sql = postgres(env.DATABASE_URL!, { max: Number(env.POOL ?? 10), onnotice: () => {} });
const keys = createLocalJWKSet((await (await fetch(env.JWKS_URL!)).json()) as JSONWebKeySet);
const CASE_PATH = /^\/v1\/cases\/([0-9a-f-]{36})$/;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

const server = http.createServer(async (req, res) => {
  try {
    const id = CASE_PATH.exec(req.url ?? "")?.[1];
    if (req.method !== "GET" || !id) return send(res, 404, { error: "not_found" });
    const token = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return send(res, 401, { error: "invalid_token" });
    let sub: string;
    let scopes: string[];
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: env.ISSUER,
        audience: env.AUDIENCE,
        algorithms: ["RS256", "ES256"],
        requiredClaims: ["sub", "exp", "iat"],
      });
      sub = String(payload.sub);
      scopes = String(payload.scope ?? "").split(" ");
    } catch {
      return send(res, 401, { error: "invalid_token" });
    }
    const [client] = await sql`
      select v.id as veterinarian_id, c.scopes, c.revoked_at
      from machine_clients c join veterinarians v on v.id = c.veterinarian_id
      where c.client_id = ${sub}`;
    if (!client || client.revoked_at) return send(res, 401, { error: "invalid_token" });
    const allowed = scopes.filter((scope) => (client.scopes as string[]).includes(scope));
    if (!allowed.includes("vetdx/read")) return send(res, 403, { error: "insufficient_scope" });
    const [row] = await sql`
      select * from cases where id = ${id} and veterinarian_id = ${client.veterinarian_id}`;
    if (!row) return send(res, 404, { error: "not_found" });
    return send(res, 200, row, { etag: `"${row.version}"`, "cache-control": "no-cache" });
  } catch {
    return send(res, 500, { error: "internal_error" });
  }
});
server.listen(Number(env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});
