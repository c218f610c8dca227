// DNS-rebinding protection behind a trusted proxy: the host that counts is the one the proxy
// reports (the right-most X-Forwarded-Host entry), not one a page added in front of it.
import { describe, expect, it, vi } from "vitest";

// Before lib/env reads it (hoisted above the imports).
vi.hoisted(() => vi.stubEnv("TRUST_PROXY", "1"));

import { checkMcpOrigin } from "./origin";

const requestWith = (headers: Record<string, string>) => new Request("http://vetdx.test/sse", { headers });

describe("MCP origin check behind a trusted proxy", () => {
  it("accepts the proxy's report of VetDx's own host", () => {
    expect(
      checkMcpOrigin(requestWith({ host: "10.0.0.5:3000", "x-forwarded-host": "vetdx.test" })),
    ).toBeNull();
  });

  it("refuses a rebound host the proxy appended after a forged X-Forwarded-Host", () => {
    const refusal = checkMcpOrigin(
      requestWith({ host: "10.0.0.5:3000", "x-forwarded-host": "vetdx.test, rebound.example" }),
    );
    expect(refusal).toMatch(/is not this MCP server/);
  });

  it("takes the right-most entry of a proxy chain, so VetDx's host appended last is accepted", () => {
    expect(
      checkMcpOrigin(
        requestWith({ host: "10.0.0.5:3000", "x-forwarded-host": "cdn-edge.internal, vetdx.test" }),
      ),
    ).toBeNull();
  });
});
