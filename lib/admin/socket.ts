// The running server's admin socket (DATA_DIR/admin.sock, mode 0600): how the admin CLI reaches a
// database that the server holds. One JSON request per connection, one JSON answer.
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Database } from "@/db";
import { AppError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { adminRequestSchema, runAdminCommand } from "./commands";

const MAX_REQUEST_BYTES = 64 * 1024;

export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "admin.sock");
}

export type AdminAnswer = { ok: true; result: unknown } | { ok: false; error: string; status: number };

export function startAdminSocket(dataDir: string, db: Database): net.Server {
  const socketPath = adminSocketPath(dataDir);
  rmSync(socketPath, { force: true });
  const server = net.createServer((connection) => {
    let buffer = "";
    connection.setEncoding("utf8");
    connection.on("data", async (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return connection.destroy();
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      const answer = await answerRequest(db, buffer.slice(0, newline));
      connection.end(`${JSON.stringify(answer)}\n`);
    });
    connection.on("error", () => connection.destroy());
  });
  server.listen(socketPath, () => chmodSync(socketPath, 0o600));
  server.on("close", () => rmSync(socketPath, { force: true }));
  return server;
}

async function answerRequest(db: Database, line: string): Promise<AdminAnswer> {
  try {
    const request = adminRequestSchema.parse(JSON.parse(line));
    logger.info({ event: "admin_command", command: request.command.join(" ") }, "admin command");
    return { ok: true, result: await runAdminCommand(db, request) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.message, status: error.status };
    logger.error({ err: error }, "admin command failed");
    return { ok: false, error: "The command failed; see the server log", status: 500 };
  }
}

export function sendAdminRequest(
  dataDir: string,
  request: unknown,
  timeoutMs = 30_000,
): Promise<AdminAnswer> {
  return new Promise((resolve, reject) => {
    const connection = net.createConnection(adminSocketPath(dataDir));
    let answer = "";
    connection.setEncoding("utf8");
    connection.setTimeout(timeoutMs, () =>
      connection.destroy(new Error("The server did not answer in time")),
    );
    connection.on("connect", () => connection.write(`${JSON.stringify(request)}\n`));
    connection.on("data", (chunk: string) => (answer += chunk));
    connection.on("end", () => {
      try {
        resolve(JSON.parse(answer) as AdminAnswer);
      } catch (error) {
        reject(error);
      }
    });
    connection.on("error", reject);
  });
}
