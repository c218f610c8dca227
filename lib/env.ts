// Configuration: every environment variable VetDx reads, parsed once with zod. Nothing else in
// the code base reads process.env. A bad value stops start-up with a message naming the variable.
import path from "node:path";
import proxyAddr from "proxy-addr";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalText.pipe(z.url().optional());

const flag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((value) => value === "1" || value === "true");

/** Which proxies in front of VetDx may name the client in X-Forwarded-For (lib/http/client-address.ts). */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

// "1" or "true": one proxy in front, which appends the address it received the request from; a
// number: that many proxies in a chain; otherwise the proxies' addresses or ranges, comma-separated
// ("10.0.0.0/8, loopback", as Express's "trust proxy"). Unset, "0" or "false": no proxy.
const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxy => {
    if (value === undefined || value === "" || value === "0" || value === "false") return false;
    if (value === "true") return { hops: 1 };
    if (/^[1-9]\d?$/.test(value)) return { hops: Number(value) };
    const addresses = value
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    try {
      proxyAddr.compile(addresses);
      return { addresses };
    } catch {
      ctx.addIssue({
        code: "custom",
        message: `"${value}" is not 0, 1, a number of proxies, or IP addresses and CIDR ranges (or loopback, linklocal, uniquelocal) separated by commas`,
      });
      return z.NEVER;
    }
  });

const positiveSeconds = (fallback: number) =>
  z.coerce.number().int().positive().max(31_536_000).default(fallback);

/** Rate-limit policies whose budgets RATE_LIMITS may override; defaults in lib/http/rate-limit.ts. */
export const RATE_LIMIT_POLICY_NAMES = [
  "api-token",
  "api-ip",
  "mcp-token",
  "mcp-ip",
  "oauth-ip",
  "idp-ip",
  "idp-token-ip",
  "sign-in-ip",
  "component-session",
  "component-soap",
  "component-probe-ip",
] as const;
export type RateLimitPolicyName = (typeof RATE_LIMIT_POLICY_NAMES)[number];
export type RateLimitOverrides = Partial<
  Record<RateLimitPolicyName, { points: number; windowSeconds: number }>
>;

// "api-token=5000/60,mcp-ip=3000/60": requests per window in seconds, per policy.
const rateLimitOverrides = z
  .string()
  .optional()
  .transform((value, ctx): RateLimitOverrides => {
    const overrides: RateLimitOverrides = {};
    for (const item of (value ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^([a-z-]+)=(\d{1,9})\/(\d{1,8})$/.exec(item);
      const name = match?.[1] as RateLimitPolicyName | undefined;
      if (
        !match ||
        !name ||
        !RATE_LIMIT_POLICY_NAMES.includes(name) ||
        Number(match[2]) < 1 ||
        Number(match[3]) < 1
      ) {
        ctx.addIssue({
          code: "custom",
          message: `"${item}" is not <policy>=<requests>/<seconds> with a policy among ${RATE_LIMIT_POLICY_NAMES.join(", ")}`,
        });
        return z.NEVER;
      }
      overrides[name] = { points: Number(match[2]), windowSeconds: Number(match[3]) };
    }
    return overrides;
  });

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    APP_URL: optionalUrl,
    DATA_DIR: z.string().min(1).default(".data"),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    // Few connections, each pipelining many queries, cost less CPU per query than many each
    // carrying one (docs/decisions.md, "Performance"); raise it for long queries on a large server.
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(5),
    OIDC_ISSUER: optionalUrl,
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OIDC_AUDIENCE: optionalText,
    INNGEST_EVENT_KEY: optionalText,
    INNGEST_SIGNING_KEY: optionalText,
    INNGEST_BASE_URL: optionalUrl,
    INNGEST_DEV: flag,
    AI_MODEL: optionalText.pipe(
      z
        .string()
        .regex(/^[a-z0-9-]+:.+$/, "must look like provider:model, e.g. openai:gpt-4.1-mini")
        .optional(),
    ),
    AI_TIMEOUT_SECONDS: positiveSeconds(30),
    AI_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
    AI_QUEUE_TIMEOUT_SECONDS: positiveSeconds(30),
    REDIS_URL: optionalText.pipe(
      z
        .string()
        .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
        .optional(),
    ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: trustProxy,
    RATE_LIMITS: rateLimitOverrides,
    CASES_PER_VET_PER_DAY: z.coerce.number().int().min(1).max(10_000_000).default(1000),
    // Unset: on only for a local embedded setup (demoSeedByDefault below).
    DEMO_SEED: z
      .enum(["1", "0", "true", "false", ""])
      .optional()
      .transform((value) =>
        value === undefined || value === "" ? undefined : value === "1" || value === "true",
      ),
    COMPONENT_SESSION_TTL_SECONDS: positiveSeconds(3600),
    MCP_ACCESS_TOKEN_TTL_SECONDS: positiveSeconds(3600),
  })
  .superRefine((env, ctx) => {
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some(Boolean) && !oidc.every(Boolean)) {
      for (const name of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const) {
        if (!env[name]) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together or not at all",
          });
        }
      }
    }
  });

export type Env = z.infer<typeof schema> & {
  DEMO_SEED: boolean;
  APP_URL: string;
  DATA_DIR: string;
  AUTH_URL: string;
  embeddedIdentityProvider: boolean;
};

export class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

/**
 * The demo vet (an admin) and the full-scope demo client are for a first look on one's own machine:
 * by default they are created only when the public origin is a loopback address and vets sign in
 * at the embedded provider. Any deployment others reach has its own APP_URL; there they are created
 * only with an explicit DEMO_SEED=1.
 */
function demoSeedByDefault(appUrl: string, embeddedIdentityProvider: boolean): boolean {
  const host = new URL(appUrl).hostname;
  const loopback = host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
  return loopback && embeddedIdentityProvider;
}

/** Parses a raw environment; exported for tests, everyone else uses `env`. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new ConfigurationError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  const appUrl = (parsed.APP_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, "");
  const externalIssuer = parsed.OIDC_ISSUER?.replace(/\/+$/, "");
  return {
    ...parsed,
    DEMO_SEED: parsed.DEMO_SEED ?? demoSeedByDefault(appUrl, externalIssuer === undefined),
    APP_URL: appUrl,
    DATA_DIR: path.resolve(parsed.DATA_DIR),
    AUTH_URL: externalIssuer ?? `${appUrl}/idp`,
    embeddedIdentityProvider: externalIssuer === undefined,
  };
}

let cached: Env | undefined;

/** The process configuration, parsed on first use. */
export function getEnv(): Env {
  if (!cached) {
    cached = parseEnv(process.env);
    // next-auth 4 reads its public URL from the environment only; derive it from APP_URL.
    process.env.NEXTAUTH_URL = cached.APP_URL;
  }
  return cached;
}
