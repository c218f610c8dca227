// DATA_DIR holds the embedded database (and in it the identity provider's signing keys), the demo
// credentials and the admin socket: nobody but the server's user may read any of it, even when the
// directory existed before with looser permissions.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** Takes group and other permissions off `entry` and, for a directory, everything under it. */
function restrictToOwner(entry: string): void {
  const stat = lstatSync(entry);
  if (stat.isSymbolicLink()) return;
  if (stat.mode & 0o077) chmodSync(entry, stat.mode & 0o700);
  if (stat.isDirectory()) for (const name of readdirSync(entry)) restrictToOwner(path.join(entry, name));
}

/**
 * Makes DATA_DIR (created when `create`) and everything in it owner-only, and sets this process's
 * umask to 077 so the files it writes later are created owner-only too.
 */
export function secureDataDirectory(dataDir: string, options: { create: boolean }): void {
  process.umask(0o077);
  if (options.create) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (existsSync(dataDir)) restrictToOwner(dataDir);
}
