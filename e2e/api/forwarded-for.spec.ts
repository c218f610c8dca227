// Spoofed client addresses against a server that does not trust a proxy (no TRUST_PROXY): a client
// rotating X-Forwarded-For, Forwarded, X-Real-IP and the internal X-Vetdx-Client-Ip header is still
// one address to the per-IP limits, at the edge (REST budget) and inside a route (failed client
// authentications at the token endpoint), while a connection from another address has its own.
import http from "node:http";
import { expect, test } from "@playwright/test";
import { startOwnServer, type OwnServer } from "../fixtures/own-server";

const API_BUDGET = 4;
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startOwnServer({ RATE_LIMITS: `api-ip=${API_BUDGET}/60` });
});
test.afterAll(() => server?.stop());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over a connection from `localAddress` (another loopback address is another client). */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<Answer> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? "GET",
        headers: options.headers,
        localAddress: options.localAddress ?? "127.0.0.1",
        agent: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A different made-up origin address on every request, in every header a proxy might use. */
function forged(index: number): Record<string, string> {
  const address = `203.0.113.${index + 1}`;
  return {
    "x-forwarded-for": index % 2 ? `${address}, 10.0.0.${index}` : address,
    forwarded: `for=${address};proto=https`,
    "x-real-ip": address,
    "x-vetdx-client-ip": address,
  };
}

test("rotating X-Forwarded-For does not buy a fresh REST budget", async () => {
  for (let index = 0; index < API_BUDGET; index += 1) {
    expect((await send("/v1/animal-types", { headers: forged(index) })).status, `request ${index + 1}`).toBe(
      401,
    );
  }
  for (let index = API_BUDGET; index < API_BUDGET + 3; index += 1) {
    const limited = await send("/v1/animal-types", { headers: forged(index) });
    expect(
      limited.status,
      `request ${index + 1} with X-Forwarded-For ${forged(index)["x-forwarded-for"]}`,
    ).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.headers["ratelimit-policy"]).toBe(`"api-ip";q=${API_BUDGET};w=60`);
    expect(limited.headers["ratelimit"]).toMatch(/^"api-ip";r=0;t=\d+$/);
    expect(limited.headers["content-type"]).toBe("application/problem+json");
    // The edge's own answer carries the security headers and a request id like any other.
    expect(limited.headers["x-content-type-options"]).toBe("nosniff");
    expect(limited.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(limited.headers["x-request-id"]).toBeTruthy();
    expect(JSON.parse(limited.body)).toMatchObject({ status: 429 });
  }
  // A connection from another address is another client: its budget is untouched.
  const other = await send("/v1/animal-types", { headers: forged(0), localAddress: "127.0.0.2" });
  expect(other.status).toBe(401);
});

test("rotating X-Forwarded-For does not dodge the failed-authentication block at the token endpoint", async () => {
  const { client } = server.demoCredentials();
  const tokenRequest = (secret: string, headers: Record<string, string>, localAddress?: string) =>
    send("/idp/oauth2/token", {
      method: "POST",
      headers: {
        ...headers,
        authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials",
      localAddress,
    });
  const statuses: number[] = [];
  for (let index = 0; index < 25 && !statuses.includes(429); index += 1) {
    statuses.push((await tokenRequest(`wrong-secret-${index}`, forged(index))).status);
  }
  // 20 failures per address (lib/http/rate-limit.ts FAILED_AUTHENTICATIONS), then blocked.
  expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
  expect(statuses.at(-1)).toBe(429);
  const blocked = await tokenRequest(client.client_secret, forged(99));
  expect(blocked.status, "even the right secret, from the blocked address").toBe(429);
  expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
  const other = await tokenRequest(client.client_secret, forged(99), "127.0.0.2");
  expect(other.status, "the right secret from another address").toBe(200);
});
