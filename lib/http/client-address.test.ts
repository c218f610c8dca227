// Which address a request counts as: the socket's peer, or behind TRUST_PROXY the X-Forwarded-For
// entry the nearest untrusted hop is known by (proxies append, so entries further left are whatever
// the client wrote). The last test runs the edge's per-address limit behind an appending proxy.
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("RATE_LIMITS", "api-ip=3/60"));

import { ConfigurationError, parseEnv } from "@/lib/env";
import { clientAddressOf, stampClientAddress } from "./client-address";
import { limitByClientIp } from "./surface-rate-limits";

const request = (socketAddress: string, forwardedFor?: string) =>
  ({
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    socket: { remoteAddress: socketAddress },
  }) as unknown as IncomingMessage;

const addressWith = (trustProxy: string | undefined, socketAddress: string, forwardedFor?: string) =>
  clientAddressOf(request(socketAddress, forwardedFor), parseEnv({ TRUST_PROXY: trustProxy }));

describe("client address", () => {
  it("is the socket's peer, whatever X-Forwarded-For says, unless TRUST_PROXY is set", () => {
    for (const off of [undefined, "", "0", "false"]) {
      expect(addressWith(off, "198.51.100.4", "203.0.113.9")).toBe("198.51.100.4");
    }
  });

  it("with TRUST_PROXY=1 is the entry the one proxy appended, not one the client wrote before it", () => {
    expect(addressWith("1", "10.0.0.2", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    expect(addressWith("true", "10.0.0.2", "6.6.6.6,203.0.113.9")).toBe("203.0.113.9");
    expect(addressWith("1", "10.0.0.2", "203.0.113.9")).toBe("203.0.113.9");
    expect(addressWith("1", "10.0.0.2")).toBe("10.0.0.2");
  });

  it("with a hop count N is the entry N from the right", () => {
    expect(addressWith("2", "10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.3")).toBe("203.0.113.9");
    // Fewer entries than trusted hops: the left-most there is.
    expect(addressWith("3", "10.0.0.2", "203.0.113.9")).toBe("203.0.113.9");
  });

  it("with a list of trusted proxies skips only those, from the right", () => {
    const trusted = "loopback, 10.0.0.0/8";
    expect(addressWith(trusted, "10.0.0.2", "6.6.6.6, 203.0.113.9, 10.0.0.3")).toBe("203.0.113.9");
    expect(addressWith(trusted, "127.0.0.1", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9");
    // A client reaching the instance directly is not a trusted proxy: its header is ignored.
    expect(addressWith(trusted, "198.51.100.4", "6.6.6.6, 203.0.113.9")).toBe("198.51.100.4");
  });

  it.each(["yes", "10.0.0.0/99", "-1", "not-an-address, 10.0.0.1"])(
    "stops start-up for TRUST_PROXY=%s",
    (value) => {
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(ConfigurationError);
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY:/);
    },
  );
});

describe("per-address limits behind an appending proxy (TRUST_PROXY=1)", () => {
  const env = parseEnv({ TRUST_PROXY: "1" });
  const servers: http.Server[] = [];
  let proxyUrl = "";

  const listen = async (server: http.Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    // The instance's edge as server.ts runs it: stamp the address, then the surface's limit.
    const instance = http.createServer(async (req, res) => {
      const address = stampClientAddress(req, env);
      if (await limitByClientIp(req.method ?? "GET", req.url ?? "/", address, res)) return;
      res.end(address);
    });
    const instancePort = await listen(instance);
    // A load balancer that appends the address it received the request from, as real ones do.
    const proxy = http.createServer((req, res) => {
      const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress]
        .filter(Boolean)
        .join(", ");
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: instancePort,
          path: req.url,
          headers: { ...req.headers, "x-forwarded-for": forwardedFor },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it("a client rotating its own X-Forwarded-For entries keeps one budget", async () => {
    const statuses: number[] = [];
    for (let index = 1; index <= 4; index += 1) {
      const response = await fetch(`${proxyUrl}/v1/cases`, {
        headers: { "x-forwarded-for": `203.0.113.${index}`, "x-vetdx-client-ip": `198.51.100.${index}` },
      });
      if (response.status === 200) expect(await response.text()).toBe("127.0.0.1");
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
