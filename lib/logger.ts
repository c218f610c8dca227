// Structured JSON logs (pino). Credentials never reach a log line: known secret fields are redacted.
import pino from "pino";
import { getEnv } from "@/lib/env";

const globalKey = Symbol.for("vetdx.logger");
type Holder = { [globalKey]?: pino.Logger };

function createLogger(): pino.Logger {
  return pino({
    level: getEnv().LOG_LEVEL,
    base: { service: "vetdx" },
    redact: {
      paths: [
        "password",
        "*.password",
        "client_secret",
        "*.client_secret",
        "clientSecret",
        "*.clientSecret",
        "access_token",
        "*.access_token",
        "refresh_token",
        "*.refresh_token",
        "authorization",
        "*.authorization",
        "headers.authorization",
        "req.headers.authorization",
        "req.headers.cookie",
      ],
      censor: "[redacted]",
    },
  });
}

export const logger: pino.Logger = ((globalThis as Holder)[globalKey] ??= createLogger());
