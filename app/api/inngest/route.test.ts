// /api/inngest without Inngest configured (the default: the inline runner processes cases): a
// clean 404 for every method, and nothing logged, so a scanner cannot fill the log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/logger";
import { call, type RouteHandler } from "@/test/support";
import { inngestConfigured } from "@/inngest/client";
import { GET, POST, PUT } from "./route";

afterEach(() => vi.restoreAllMocks());

describe("/api/inngest without Inngest", () => {
  it.each([
    ["GET", GET],
    ["PUT", PUT],
    ["POST", POST],
  ])("%s answers 404 problem+json and logs nothing", async (method, handler) => {
    expect(inngestConfigured()).toBe(false);
    const logged = [
      vi.spyOn(logger, "error"),
      vi.spyOn(logger, "warn"),
      vi.spyOn(console, "error"),
      vi.spyOn(console, "warn"),
    ];
    const response = await call(handler as RouteHandler, "/api/inngest?fnId=vetdx-process-case&stepId=step", {
      method,
      headers: { "content-type": "application/json" },
      body: method === "GET" ? undefined : JSON.stringify({ event: { name: "case/created" } }),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.text()).not.toMatch(/inngest|signing|key/i);
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });
});
