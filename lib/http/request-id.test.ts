// Request ids and logs: a well-formed X-Request-Id is kept, anything else replaced; every log line
// written inside a request carries its id; secrets in logged objects and headers are redacted.
import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions, requestContext } from "@/lib/logger";
import { loggablePath, requestIdFrom } from "./request-id";

function captureLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino(loggerOptions("info"), stream), lines };
}

describe("request ids", () => {
  it("keeps a well-formed incoming id and replaces a missing or hostile one", () => {
    expect(requestIdFrom("abc-123_x.y:z")).toBe("abc-123_x.y:z");
    expect(requestIdFrom(["first-id", "second"])).toBe("first-id");
    for (const bad of [undefined, "", "has space", "a\nb", "<script>", "x".repeat(200), "-leading"]) {
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("logs paths without query strings or component session ids", () => {
    expect(loggablePath("/callback?code=secret&state=s")).toBe("/callback");
    expect(loggablePath("/components/diagnostics/cs_0123456789abcdef/x")).toBe(
      "/components/diagnostics/:session/x",
    );
  });
});

describe("logs", () => {
  it("carry the request id on every line written while the request is handled", async () => {
    const { log, lines } = captureLogger();
    await requestContext.run({ requestId: "req-42" }, async () => {
      log.info("first");
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.warn({ event: "later" }, "after an await");
    });
    log.info("outside");
    expect(lines.map((line) => line.request_id)).toEqual(["req-42", "req-42", undefined]);
  });

  it("redact credentials in logged objects, bodies and headers", () => {
    const { log, lines } = captureLogger();
    log.info(
      {
        password: "hunter2",
        body: { client_secret: "s3cret", refresh_token: "rt", nested: { access_token: "at" } },
        headers: { authorization: "Bearer eyJ.secret", cookie: "session=abc", "set-cookie": "x=y" },
        req: { headers: { authorization: "Basic Zm9vOmJhcg==", "x-api-key": "k" } },
        client_id: "demo-client",
      },
      "with secrets",
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of [
      "hunter2",
      "s3cret",
      '"rt"',
      '"at"',
      "eyJ.secret",
      "session=abc",
      "x=y",
      "Zm9vOmJhcg",
      '"k"',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("demo-client");
    expect(text).toContain("[redacted]");
  });
});
