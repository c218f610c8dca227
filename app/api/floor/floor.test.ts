// The benchmark floors answer a constant, whatever is asked, and read nothing.
import { describe, expect, it } from "vitest";
import { GET as floor } from "./route";
import { GET as dynamicFloor } from "./[id]/route";

describe("GET /api/floor and /api/floor/{id}", () => {
  it.each([
    ["/api/floor", () => floor()],
    ["/api/floor/{id}", () => dynamicFloor()],
  ])("%s answers a constant that is never cached", async (_name, get) => {
    const response = get();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ok: true });
  });
});
