// `npm run admin -- <command> [--json]`: operator commands. With PostgreSQL it opens the database
// directly; with the embedded database it asks the running server over DATA_DIR/admin.sock, or, when
// no server runs, takes the data directory's lock and opens it itself. Never both.
import { parseArgs } from "node:util";
import { readLockHolder } from "@/db/data-dir-lock";
import { ADMIN_USAGE, adminRequestSchema, runAdminCommand, type AdminRequest } from "@/lib/admin/commands";
import { sendAdminRequest, type AdminAnswer } from "@/lib/admin/socket";
import { ConfigurationError, getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { prepareDatabase } from "@/lib/server/prepare-database";

async function runLocally(request: AdminRequest): Promise<AdminAnswer> {
  const env = getEnv();
  const prepared = await prepareDatabase(env, "admin-cli");
  try {
    return { ok: true, result: await runAdminCommand(prepared.handle.db, request) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.message, status: error.status };
    throw error;
  } finally {
    await prepared.handle.close();
    prepared.release();
  }
}

function print(result: unknown, asJson: boolean) {
  if (asJson) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const rows = Array.isArray(result) ? result : [result];
  if (rows.length === 0) process.stdout.write("(none)\n");
  for (const row of rows) {
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      process.stdout.write(
        `${key.padEnd(16)} ${Array.isArray(value) ? value.join(", ") : String(value ?? "")}\n`,
      );
    }
    if (rows.length > 1) process.stdout.write("\n");
  }
  if ((result as { client_secret?: string })?.client_secret || (result as { password?: string })?.password) {
    process.stderr.write("\nStore the secret now: it is not shown again.\n");
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      email: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
      admin: { type: "boolean" },
      scopes: { type: "string" },
      "embed-origin": { type: "string", multiple: true },
      "client-id": { type: "string" },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return;
  }
  const { json = false, help: _help, ...options } = values;
  const request = adminRequestSchema.parse({ command: positionals, options });
  const env = getEnv();
  const holder = env.DATABASE_URL ? undefined : readLockHolder(env.DATA_DIR);
  const answer = holder
    ? await sendAdminRequest(env.DATA_DIR, request).catch((error: Error) => {
        throw new Error(
          `Process ${holder.pid} (${holder.role}) holds ${env.DATA_DIR} but its admin socket did not answer (${error.message}). ` +
            "The embedded database is never opened by two processes; wait for it to finish or stop it.",
        );
      })
    : await runLocally(request);
  if (!answer.ok) {
    process.stderr.write(`Error: ${answer.error}\n`);
    process.exit(answer.status === 500 ? 1 : 2);
  }
  print(answer.result, json);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigurationError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof Error && "issues" in error)
    process.stderr.write(`Error: ${error.message}\n${ADMIN_USAGE}\n`);
  else process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
