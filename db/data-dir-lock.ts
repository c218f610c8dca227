// One process at a time may open the embedded database: PGlite has no multi-process locking and a
// second opener silently loses writes. The holder writes its pid to DATA_DIR/pglite.lock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export class DataDirectoryBusyError extends Error {
  override name = "DataDirectoryBusyError";
  constructor(
    readonly holderPid: number,
    readonly dataDir: string,
  ) {
    super(`The embedded database in ${dataDir} is held by process ${holderPid}`);
  }
}

interface LockContent {
  pid: number;
  role: string;
  startedAt: string;
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, "pglite.lock");
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live process holding the data directory, if any. */
export function readLockHolder(dataDir: string): LockContent | undefined {
  try {
    const content = JSON.parse(readFileSync(lockFilePath(dataDir), "utf8")) as LockContent;
    return isAlive(content.pid) && content.pid !== process.pid ? content : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock or throws DataDirectoryBusyError; returns the release function. */
export function acquireDataDirLock(dataDir: string, role: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockFilePath(dataDir);
  const content: LockContent = { pid: process.pid, role, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      writeFileSync(file, JSON.stringify(content), { flag: "wx", mode: 0o600 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          const current = JSON.parse(readFileSync(file, "utf8")) as LockContent;
          if (current.pid === process.pid) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readLockHolder(dataDir);
      if (holder) throw new DataDirectoryBusyError(holder.pid, dataDir);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
