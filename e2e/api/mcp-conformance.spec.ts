// @modelcontextprotocol/conformance server scenarios that apply to VetDx's tool server. The suite
// cannot send a bearer token, so it talks to a small forwarding proxy that adds the M2M token
// and passes Host and Origin through unchanged when they are not the proxy's own (so the
// DNS-rebinding scenario reaches the server as sent). The installed suite (0.1.13) runs the
// 2025-era scenarios; the 2026-07-28 ones (resources, prompts, caching) need a newer suite, which
// needs Node 22: npx fetches both, pinned, from the npm registry.
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { e2eServer } from "../fixtures/server";

const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "resources-list",
  "prompts-list",
];
// Scenarios that need the suite's own fixtures (test://static-text, test_simple_prompt, the
// completion-complete scenario's test_prompt_with_arguments…) do not apply to a product server.
const SCENARIOS_2026 = ["resources-list", "prompts-list", "sep-2164-resource-not-found", "caching"];
const SUITE_2026 = [
  "-y",
  "-p",
  "node@22",
  "-p",
  "@modelcontextprotocol/conformance@0.2.0-alpha.12",
  "conformance",
];

async function m2mToken(): Promise<string> {
  const { client } = e2eServer.demoCredentials();
  const response = await fetch(`${e2eServer.url}/idp/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
    },
    // RFC 8707: a token for the MCP server only (without `resource` it would also open REST).
    body: new URLSearchParams({ grant_type: "client_credentials", resource: `${e2eServer.url}/mcp` }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

function startProxy(token: string): Promise<http.Server> {
  const target = new URL(e2eServer.url);
  const server = http.createServer((req, res) => {
    const ownHost = `localhost:${(server.address() as AddressInfo).port}`;
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    headers.host =
      req.headers.host === ownHost ||
      req.headers.host === `127.0.0.1:${(server.address() as AddressInfo).port}`
        ? target.host
        : req.headers.host;
    const upstream = http.request(
      { hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Runs one scenario; asynchronous, as the proxy runs in this process and must keep serving. */
function runScenario(command: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: process.cwd(), env: { ...process.env, NODE_OPTIONS: "" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

test("conformance server scenarios pass", async () => {
  test.setTimeout(180_000);
  const proxy = await startProxy(await m2mToken());
  const url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  try {
    for (const scenario of SCENARIOS) {
      const result = await runScenario("node_modules/.bin/conformance", [
        "server",
        "--url",
        url,
        "--scenario",
        scenario,
      ]);
      expect(result.status, `${scenario}:\n${result.output}`).toBe(0);
    }
  } finally {
    proxy.close();
  }
});

test("2026-07-28 conformance: resources, prompts, resource not found, caching hints", async () => {
  test.setTimeout(300_000);
  const proxy = await startProxy(await m2mToken());
  const url = `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
  try {
    for (const scenario of SCENARIOS_2026) {
      const result = await runScenario("npx", [
        ...SUITE_2026,
        "server",
        "--url",
        url,
        "--scenario",
        scenario,
        "--spec-version",
        "2026-07-28",
      ]);
      expect(result.status, `${scenario}:\n${result.output}`).toBe(0);
    }
  } finally {
    proxy.close();
  }
});
