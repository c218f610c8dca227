import { describe, expect, it } from "vitest";
import { ConfigurationError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("gives a working embedded configuration when nothing is set", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.AUTH_URL).toBe("http://localhost:3000/idp");
    expect(env.embeddedIdentityProvider).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toMatch(/\.data$/);
  });

  it("derives APP_URL from PORT and strips a trailing slash", () => {
    expect(parseEnv({ PORT: "4100" }).APP_URL).toBe("http://localhost:4100");
    expect(parseEnv({ APP_URL: "https://vetdx.example/" }).APP_URL).toBe("https://vetdx.example");
  });

  it("uses the external provider as auth_url when OIDC_* is set", () => {
    const env = parseEnv({
      OIDC_ISSUER: "https://idp.example/realms/vets/",
      OIDC_CLIENT_ID: "vetdx",
      OIDC_CLIENT_SECRET: "s3cret",
    });
    expect(env.embeddedIdentityProvider).toBe(false);
    expect(env.AUTH_URL).toBe("https://idp.example/realms/vets");
  });

  it.each([
    [{ PORT: "seventy" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL"],
    [{ APP_URL: "not a url" }, "APP_URL"],
    [{ OIDC_ISSUER: "https://idp.example" }, "OIDC_CLIENT_ID"],
    [{ AI_MODEL: "gpt-4" }, "AI_MODEL"],
    [{ REDIS_URL: "localhost:6379" }, "REDIS_URL"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("stops with a message naming the variable for %o", (raw, name) => {
    expect(() => parseEnv(raw)).toThrow(ConfigurationError);
    expect(() => parseEnv(raw)).toThrow(new RegExp(`${name}:`));
  });
});

describe("DEMO_SEED", () => {
  it.each([
    ["nothing is set (npm start on a fresh clone)", {}],
    ["APP_URL is 127.0.0.1", { APP_URL: "http://127.0.0.1:3000" }],
    ["APP_URL is [::1]", { APP_URL: "http://[::1]:3000" }],
    ["APP_URL is localhost, on PostgreSQL", { PORT: "4100", DATABASE_URL: "postgres://db.local/vetdx" }],
  ])("defaults on when %s", (_when, raw) => {
    expect(parseEnv(raw).DEMO_SEED).toBe(true);
  });

  it.each([
    ["APP_URL is a public origin", { APP_URL: "https://vetdx.example" }],
    ["APP_URL only starts like localhost", { APP_URL: "http://localhost.attacker.example" }],
    ["APP_URL is a LAN address", { APP_URL: "http://192.168.1.20:3000" }],
    [
      "an external identity provider signs vets in",
      { OIDC_ISSUER: "https://idp.example", OIDC_CLIENT_ID: "vetdx", OIDC_CLIENT_SECRET: "s3cret" },
    ],
  ])("defaults off when %s", (_when, raw) => {
    expect(parseEnv(raw).DEMO_SEED).toBe(false);
  });

  it("follows an explicit choice either way", () => {
    expect(parseEnv({ APP_URL: "https://vetdx.example", DEMO_SEED: "1" }).DEMO_SEED).toBe(true);
    expect(parseEnv({ DEMO_SEED: "0" }).DEMO_SEED).toBe(false);
    expect(parseEnv({ DEMO_SEED: "false" }).DEMO_SEED).toBe(false);
  });
});
