// Security headers as server.ts applies them: defaults added when the head is written, a route's
// own policy kept (component pages, identity provider and consent pages), HSTS only over https.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applySecurityHeaders,
  htmlContentSecurityPolicy,
  NON_HTML_CONTENT_SECURITY_POLICY,
  securityHeaderDefaults,
  withScriptNonce,
} from "./security-headers";

const plain = securityHeaderDefaults({
  appUrl: "http://localhost:3000",
  authUrl: "http://localhost:3000/idp",
});
const secure = securityHeaderDefaults({
  appUrl: "https://vetdx.example",
  authUrl: "https://login.example/realms/vets",
});

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const routes: Record<string, Handler> = {
  "/page": (_req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end("<!doctype html><p>hi</p>");
  },
  "/json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
  // Echoes the policy Next.js would read its script nonce from.
  "/page-seen": (req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(String(req.headers["content-security-policy"] ?? ""));
  },
  "/component": (_req, res) => {
    // As server.ts does for /components/diagnostics/<id> before Next.js renders it.
    res.setHeader("content-security-policy", "frame-ancestors https://pms.example");
    res.setHeader("referrer-policy", "no-referrer");
    res.setHeader("content-type", "text/html");
    res.end("<p>component</p>");
  },
  "/idp-page": (_req, res) =>
    res
      .writeHead(200, [
        "content-type",
        "text/html",
        "content-security-policy",
        "default-src 'none'; form-action 'self' https://client.example; frame-ancestors 'none'",
      ])
      .end("<p>sign in</p>"),
};

let base = "";
let secureBase = "";
const servers: http.Server[] = [];
async function serve(defaults: typeof plain): Promise<string> {
  const server = http.createServer((req, res) => {
    applySecurityHeaders(res, withScriptNonce(req, defaults));
    (routes[req.url ?? ""] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
beforeAll(async () => {
  base = await serve(plain);
  secureBase = await serve(secure);
});
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

describe("security headers", () => {
  it("gives HTML pages a Next.js-compatible CSP and refuses framing", async () => {
    const response = await fetch(`${base}/page`);
    expect(response.headers.get("content-security-policy")).toBe(plain.html);
    expect(plain.html).toContain("script-src 'self' 'unsafe-inline'");
    expect(plain.html).toContain("object-src 'none'");
    expect(plain.html).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("locks down everything that is not HTML", async () => {
    const response = await fetch(`${base}/json`);
    expect(response.headers.get("content-security-policy")).toBe(NON_HTML_CONTENT_SECURITY_POLICY);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await fetch(`${base}/missing`)).headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("keeps the component page's per-session frame-ancestors and no-referrer, without X-Frame-Options", async () => {
    const response = await fetch(`${base}/component`);
    expect(response.headers.get("content-security-policy")).toBe("frame-ancestors https://pms.example");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBeNull();
  });

  it("keeps a page's own CSP given to writeHead (identity provider, consent page)", async () => {
    const response = await fetch(`${base}/idp-page`);
    expect(response.headers.get("content-security-policy")).toContain(
      "form-action 'self' https://client.example",
    );
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("sends HSTS on every kind of answer when APP_URL is https, and on none over http", async () => {
    for (const path of ["/page", "/json", "/component", "/idp-page", "/missing"]) {
      const overHttps = await fetch(`${secureBase}${path}`);
      expect(overHttps.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
      expect(overHttps.headers.get("x-content-type-options"), path).toBe("nosniff");
      const overHttp = await fetch(`${base}${path}`);
      expect(overHttp.headers.get("strict-transport-security"), path).toBeNull();
    }
    // The scheme of APP_URL decides, not the host: a plain-http development host is never pinned.
    expect(
      securityHeaderDefaults({ appUrl: "http://vetdx.example", authUrl: "http://vetdx.example/idp" }).hsts,
    ).toBeUndefined();
    expect(
      securityHeaderDefaults({ appUrl: "https://localhost:3000", authUrl: "https://localhost:3000/idp" })
        .hsts,
    ).toBe("max-age=31536000");
  });

  it("builds the component page's policy from the page policy with its own frame-ancestors", () => {
    const options = { appUrl: "https://vetdx.example", authUrl: "https://vetdx.example/idp" };
    const framable = htmlContentSecurityPolicy(options, "https://pms.example https://vet.example");
    expect(framable).toBe(
      htmlContentSecurityPolicy(options).replace(
        "frame-ancestors 'none'",
        "frame-ancestors https://pms.example https://vet.example",
      ),
    );
    expect(framable).toContain("object-src 'none'");
  });

  it("sends HSTS only when APP_URL is https, and lets the sign-in continue to an external provider", async () => {
    const response = await fetch(`${secureBase}/json`);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(secure.html).toContain("form-action 'self' https://login.example");
    expect(htmlContentSecurityPolicy({ appUrl: "http://a", authUrl: "http://a/idp", dev: true })).toContain(
      "'unsafe-eval'",
    );
  });
});

describe("script nonces for pages", () => {
  const scriptSrcOf = (csp: string | null) =>
    (csp ?? "")
      .split(";")
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith("script-src"));

  it("give a browser's page request a fresh nonce and no 'unsafe-inline', on the response and the request", async () => {
    const policies: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${base}/page-seen`, { headers: { accept: "text/html,*/*;q=0.8" } });
      const policy = response.headers.get("content-security-policy")!;
      expect(scriptSrcOf(policy)).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
      expect(await response.text()).toBe(policy);
      policies.push(policy);
    }
    expect(policies[0]).not.toBe(policies[1]);
  });

  it("leave other requests and the identity provider's pages alone", async () => {
    expect((await fetch(`${base}/page`)).headers.get("content-security-policy")).toBe(plain.html);
    const idp = await fetch(`${base}/idp-page`, { headers: { accept: "text/html" } });
    expect(idp.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
