// The embedded database must not starve the server's I/O: PGlite runs queries synchronously on this
// thread, so a request whose queries all go to it would otherwise never let the event loop poll.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "./index";
import { rowsOf } from "./rows";

describe("PGlite between queries", () => {
  let handle: DatabaseHandle;
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    handle = await openDatabase({ pgliteDataDir: "memory://" });
    server = http.createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await handle.close();
  });

  it("lets sockets be served while a long run of queries goes on", async () => {
    await fetch(url).then((response) => response.text()); // connection and fetch machinery warmed up
    let queriesDone = 0;
    let queriesDoneWhenServed = -1;
    const served = fetch(url)
      .then((response) => response.text())
      .then(() => {
        queriesDoneWhenServed = queriesDone;
      });
    for (let i = 0; i < 2000; i++) {
      await handle.db.execute(sql`select ${i}::int as n`);
      queriesDone += 1;
    }
    await served;
    expect(queriesDoneWhenServed).toBeGreaterThanOrEqual(0);
    expect(queriesDoneWhenServed).toBeLessThan(2000);
  });

  it("keeps the order of one caller's queries", async () => {
    await handle.db.execute(sql`create temporary table seen (id serial, n int)`);
    await Promise.all(
      Array.from({ length: 50 }, (_, n) => handle.db.execute(sql`insert into seen (n) values (${n})`)),
    );
    const result = await handle.db.execute(sql`select n from seen order by id`);
    expect(rowsOf<{ n: number }>(result).map((row) => row.n)).toEqual(
      Array.from({ length: 50 }, (_, n) => n),
    );
  });
});
