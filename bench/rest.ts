// REST and MCP throughput, latency and memory (issue 7). Prints one JSON object.
//
// GET /v1/cases/{id} at 64 connections (autocannon) against, in the same run and alternating
// round by round because this machine is noisy:
//   app        one VetDx process (node --import tsx server.ts, the built app)
//   floor      GET /api/floor on that same process: a constant-JSON Next.js route handler, what the
//              framework itself costs per request
//   floor_dynamic  GET /api/floor/{id}: the same on a route with a path parameter, as /v1/cases/{id}
//              has: the floor for a route of that shape (Next.js does more for it whatever the handler)
//   bare       node:http + jose + postgres.js doing the same token check and queries (PostgreSQL
//              only; bench/lib/bare-server.ts): the limit
//   cluster    WEB_CONCURRENCY workers (scripts/cluster.mjs, PostgreSQL only), and its floor
// Then the app and the cluster once more with a lighter client, raw keep-alive sockets
// (bench/lib/keepalive-load.ts), whose steady_p99_ms leaves out each connection's first request;
// tools/call search_symptoms over /mcp (1 connection, then 16), the case pipeline's throughput
// (cases/s to COMPLETED, on the server's clock), and the servers' RSS sampled from /proc while
// under load.
//
// With DATABASE_URL the benchmark creates its own database on that server and drops it at the end;
// without it everything runs on PGlite (app and the floors only). REDIS_URL, when set, is passed to the
// servers (rate limits in Redis, as in a multi-instance deployment). Rate-limit budgets are raised
// so that no request is refused, but every limiter still runs.
// The floors are benchmark fixtures (app/api/floor/**/route.bench.ts) that no other build compiles:
// the benchmark builds the app once more for itself, with them, in .next-bench (VETDX_NEXT_DIST_DIR
// overrides; scripts/start.mjs --build-only, skipped when the sources have not changed).
// Run: npm run bench   (or node --import tsx bench/rest.ts)
// Knobs: BENCH_SECONDS (10), BENCH_ROUNDS (7), BENCH_CONNECTIONS (64), WEB_CONCURRENCY (cores),
// BENCH_TARGETS (all; e.g. app,floor), BENCH_SERVER_ARGS (node flags for the one-process app, e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/p"), BENCH_QUICK=1 (the rounds only: no keep-alive client, MCP or
// pipeline).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import postgres from "postgres";
import { CLUSTER_SCRIPT, SERVER_EXEC_ARGV, SERVER_SCRIPT } from "../scripts/server-process.mjs";
import { freePort } from "../test/free-port";
import { keepAliveLoad } from "./lib/keepalive-load";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
// The benchmark's own build, with the floor routes (next.config.ts), used by every server it starts.
const BENCH_BUILD = {
  VETDX_NEXT_DIST_DIR: process.env.VETDX_NEXT_DIST_DIR ?? ".next-bench",
  VETDX_BENCH_ROUTES: "1",
};
const WORKERS = Number(process.env.WEB_CONCURRENCY ?? os.availableParallelism());
const UNLIMITED = ["api-token", "api-ip", "mcp-token", "mcp-ip", "idp-token-ip", "idp-ip", "oauth-ip"]
  .map((name) => `${name}=100000000/60`)
  .join(",");

interface Proc {
  url: string;
  child: ChildProcess;
  dataDir?: string;
}

async function waitFor(url: string, child: ChildProcess, headers: Record<string, string> = {}) {
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not become ready`);
}

async function startApp(script: string[], env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "vetdx-bench-rest-"));
  const child = spawn(process.execPath, script, {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      RATE_LIMITS: UNLIMITED,
      CASES_PER_VET_PER_DAY: "1000000",
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: dataDir,
      ...BENCH_BUILD,
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitFor(`${url}/readyz`, child);
  return { url, child, dataDir };
}

async function stop(proc: Proc | undefined) {
  if (!proc || proc.child.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
  if (proc.dataDir) rmSync(proc.dataDir, { recursive: true, force: true });
}

/** The process and all its descendants (cluster workers). */
function processTree(pid: number): number[] {
  const pids = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(" ") : []) pids.push(...processTree(Number(child)));
    }
  } catch {
    // gone
  }
  return pids;
}

function rssMb(pid: number): number {
  let kb = 0;
  for (const each of processTree(pid)) {
    try {
      const line = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${each}/status`, "utf8"));
      kb += Number(line?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return Math.round(kb / 1024);
}

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** utime + stime, in clock ticks, of the main thread and of the whole process tree. */
function cpuTicks(pid: number): { main: number; all: number } {
  const ticks = (stat: string) => {
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  const read = (file: string) => {
    try {
      return ticks(readFileSync(file, "utf8"));
    } catch {
      return 0; // gone
    }
  };
  const tree = processTree(pid);
  return {
    main: read(`/proc/${pid}/task/${pid}/stat`),
    all: tree.reduce((sum, each) => sum + read(`/proc/${each}/stat`), 0),
  };
}

/** CPU per request; the main thread's only where one thread serves (a cluster's primary just accepts). */
function perRequestCpu(
  before: ReturnType<typeof cpuTicks>,
  after: ReturnType<typeof cpuTicks>,
  requests: number,
  mainThread: boolean,
) {
  if (!requests) return undefined;
  const perRequest = (ticks: number) => Math.round((ticks * TICK_US) / requests);
  return {
    ...(mainThread ? { main_thread_cpu_us: perRequest(after.main - before.main) } : {}),
    process_cpu_us: perRequest(after.all - before.all),
  };
}

interface Load {
  url: string;
  /** Several processes behind one port (the main-thread CPU figure does not apply). */
  cluster?: boolean;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
  connections?: number;
  seconds?: number;
  pid?: number;
}

interface Figure {
  rps: number;
  /** CPU time of the server's main thread (and of all its processes and threads) per request. */
  main_thread_cpu_us?: number;
  process_cpu_us?: number;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  errors: number;
  peak_rss_mb?: number;
}

async function load(options: Load): Promise<Figure> {
  let peak = 0;
  const sampler = options.pid
    ? setInterval(() => {
        peak = Math.max(peak, rssMb(options.pid!));
      }, 250)
    : undefined;
  const cpuBefore = options.pid ? cpuTicks(options.pid) : undefined;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? CONNECTIONS,
    duration: options.seconds ?? SECONDS,
  });
  if (sampler) clearInterval(sampler);
  const cpu =
    options.pid && cpuBefore
      ? perRequestCpu(cpuBefore, cpuTicks(options.pid), result.requests.total, !options.cluster)
      : undefined;
  return {
    rps: Math.round(result.requests.average),
    ...cpu,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(options.pid ? { peak_rss_mb: peak } : {}),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function summarise(runs: Figure[]) {
  return {
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50_ms: median(runs.map((r) => r.p50_ms)),
    p99_ms: median(runs.map((r) => r.p99_ms)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    ...(runs[0]?.peak_rss_mb !== undefined
      ? { peak_rss_mb: Math.max(...runs.map((r) => r.peak_rss_mb ?? 0)) }
      : {}),
    rounds_rps: runs.map((r) => r.rps),
    ...(runs[0]?.main_thread_cpu_us !== undefined
      ? { main_thread_cpu_us: median(runs.map((r) => r.main_thread_cpu_us ?? 0)) }
      : {}),
    ...(runs[0]?.process_cpu_us !== undefined
      ? { process_cpu_us: median(runs.map((r) => r.process_cpu_us ?? 0)) }
      : {}),
  };
}

async function m2mToken(appUrl: string, credentials: { client_id: string; client_secret: string }) {
  const response = await fetch(`${appUrl}/idp/oauth2/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  if (!response.ok) throw new Error(`token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Submits `count` cases at once and measures, on the server's clock, cases/s to COMPLETED. */
async function pipeline(appUrl: string, token: string, count: number) {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const ids = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const response = await fetch(`${appUrl}/v1/cases`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          notes: `Patient ${index}: 6yo MN Labrador, 31 kg. Vomiting and diarrhoea for 2 days, lethargic, not eating. No coughing.`,
        }),
      });
      if (response.status !== 201) throw new Error(`POST /v1/cases: ${response.status}`);
      return ((await response.json()) as { id: string }).id;
    }),
  );
  const done = new Map<string, { status: string; created: number; updated: number }>();
  const deadline = Date.now() + 120_000;
  while (done.size < ids.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all(
      ids
        .filter((id) => !done.has(id))
        .map(async (id) => {
          const body = (await (await fetch(`${appUrl}/v1/cases/${id}`, { headers })).json()) as {
            status: string;
            created_at: string;
            updated_at: string;
          };
          if (body.status === "COMPLETED" || body.status === "ERROR")
            done.set(id, {
              status: body.status,
              created: Date.parse(body.created_at),
              updated: Date.parse(body.updated_at),
            });
        }),
    );
  }
  const completed = [...done.values()].filter((c) => c.status === "COMPLETED");
  const span = Math.max(...completed.map((c) => c.updated)) - Math.min(...completed.map((c) => c.created));
  return {
    submitted: count,
    completed: completed.length,
    errors: count - completed.length,
    cases_per_second: Number((completed.length / (Math.max(span, 1) / 1000)).toFixed(1)),
  };
}

async function mcpFigures(appUrl: string, token: string, pid: number, cluster = false) {
  const request = {
    url: `${appUrl}/mcp`,
    method: "POST" as const,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_symptoms", arguments: { q: "throwing up", limit: 5 } },
    }),
  };
  const probe = await fetch(request.url, { method: "POST", headers: request.headers, body: request.body });
  const text = await probe.text();
  if (probe.status !== 200 || text.includes('"isError":true'))
    throw new Error(`MCP probe: ${probe.status} ${text}`);
  await load({ ...request, connections: 4, seconds: 3 }); // warm-up
  return {
    one_connection: await load({ ...request, connections: 1, seconds: SECONDS, pid, cluster }),
    sixteen_connections: await load({ ...request, connections: 16, seconds: SECONDS, pid, cluster }),
  };
}

// BENCH_TARGETS=app,floor narrows the rounds to some targets (quick comparisons while profiling).
const only = process.env.BENCH_TARGETS?.split(",");
const wanted = (name: string) => !only || only.includes(name);

function buildForBenchmark() {
  const build = spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], {
    env: { ...process.env, ...BENCH_BUILD },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (build.status !== 0) throw new Error("the benchmark's build failed");
}

async function main() {
  buildForBenchmark();
  const serverUrl = process.env.DATABASE_URL;
  const database = serverUrl ? `vetdx_bench_${randomBytes(4).toString("hex")}` : undefined;
  let databaseUrl: string | undefined;
  if (serverUrl && database) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${database}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const shared: Record<string, string> = { DATABASE_URL: databaseUrl ?? "" };
  if (!databaseUrl) shared.REDIS_URL = ""; // PGlite: one process, in-memory limits
  const procs: Proc[] = [];
  try {
    // Started as `npm start` starts it (scripts/server-process.mjs), on the benchmark's build.
    // BENCH_SERVER_ARGS adds node flags to the one-process app, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
    const serverArgs = process.env.BENCH_SERVER_ARGS?.split(" ").filter(Boolean) ?? [];
    const app = await startApp([...SERVER_EXEC_ARGV, ...serverArgs, SERVER_SCRIPT], {
      ...shared,
      DEMO_SEED: "1",
    });
    procs.push(app);
    const credentials = JSON.parse(
      readFileSync(path.join(app.dataDir!, "demo-credentials.json"), "utf8"),
    ).client;
    const token = await m2mToken(app.url, credentials);
    const auth = { authorization: `Bearer ${token}` };
    const created = await fetch(`${app.url}/v1/cases`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({
        notes:
          "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, lethargic. No diarrhoea.",
      }),
    });
    const caseId = ((await created.json()) as { id: string }).id;
    for (let i = 0; i < 50; i += 1) {
      const body = (await (await fetch(`${app.url}/v1/cases/${caseId}`, { headers: auth })).json()) as {
        status: string;
      };
      if (body.status === "COMPLETED") break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const idleRss = rssMb(app.child.pid!);

    const targets: { name: string; load: Load }[] = [
      { name: "app", load: { url: `${app.url}/v1/cases/${caseId}`, headers: auth, pid: app.child.pid } },
      { name: "floor", load: { url: `${app.url}/api/floor`, pid: app.child.pid } },
      // The floor on a route with a path parameter: splits the app's cost into what Next.js spends
      // on a dynamic route and what VetDx's own work costs.
      { name: "floor_dynamic", load: { url: `${app.url}/api/floor/${caseId}`, pid: app.child.pid } },
    ];
    let cluster: Proc | undefined;
    if (databaseUrl && ["bare", "cluster", "cluster_floor"].some(wanted)) {
      const discovery = (await (await fetch(`${app.url}/idp/.well-known/openid-configuration`)).json()) as {
        jwks_uri: string;
      };
      const barePort = await freePort();
      const bare: Proc = {
        url: `http://127.0.0.1:${barePort}`,
        child: spawn(process.execPath, ["--import", "tsx", "bench/lib/bare-server.ts"], {
          env: {
            ...process.env,
            PORT: String(barePort),
            DATABASE_URL: databaseUrl,
            JWKS_URL: discovery.jwks_uri,
            ISSUER: `${app.url}/idp`,
            AUDIENCE: app.url,
          },
          stdio: ["ignore", "ignore", "inherit"],
        }),
      };
      procs.push(bare);
      await waitFor(`${bare.url}/v1/cases/${caseId}`, bare.child, auth);
      cluster = await startApp([CLUSTER_SCRIPT], {
        ...shared,
        DEMO_SEED: "0",
        WEB_CONCURRENCY: String(WORKERS),
      });
      procs.push(cluster);
      // The primary answers once its first worker listens; give the others time to start too.
      while (processTree(cluster.child.pid!).length < WORKERS + 1)
        await new Promise((resolve) => setTimeout(resolve, 500));
      await new Promise((resolve) => setTimeout(resolve, 15_000));
      const clusterToken = await m2mToken(cluster.url, credentials);
      targets.push(
        { name: "bare", load: { url: `${bare.url}/v1/cases/${caseId}`, headers: auth, pid: bare.child.pid } },
        {
          name: "cluster",
          load: {
            url: `${cluster.url}/v1/cases/${caseId}`,
            headers: { authorization: `Bearer ${clusterToken}` },
            pid: cluster.child.pid,
            cluster: true,
          },
        },
        {
          name: "cluster_floor",
          load: { url: `${cluster.url}/api/floor`, pid: cluster.child.pid, cluster: true },
        },
      );
    }

    if (only) targets.splice(0, targets.length, ...targets.filter((t) => wanted(t.name)));

    // Warm-up (JIT, route compilation, connection pools), then alternating rounds.
    for (const target of targets) {
      const warm = await load({ ...target.load, seconds: 3 });
      if (warm.non2xx || warm.errors) throw new Error(`${target.name}: ${JSON.stringify(warm)}`);
    }
    const runs = new Map<string, Figure[]>(targets.map((t) => [t.name, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const target of targets) runs.get(target.name)!.push(await load(target.load));
    }
    const rest = Object.fromEntries([...runs].map(([name, figures]) => [name, summarise(figures)]));
    // Paired: each round's figure against its baseline's figure from the same round (minutes apart
    // at most), then the median over rounds, so a noisy minute moves both sides of a ratio.
    const ratio = (a: string, b: string) => {
      const [ours, theirs] = [runs.get(a), runs.get(b)];
      if (!ours || !theirs) return undefined;
      return Number(median(ours.map((run, i) => run.rps / theirs[i]!.rps)).toFixed(2));
    };
    const atLeast = (value: number | undefined, target: number) => ({
      ratio: value,
      met: (value ?? 0) >= target,
    });
    // The same comparison by the main thread's CPU time per request (one process is bound by that
    // thread): less noisy than requests/s, which also moves with what the load generator gets.
    const cpuRatio = (a: string, b: string) => {
      const [ours, theirs] = [runs.get(a), runs.get(b)];
      if (!ours?.[0]?.main_thread_cpu_us || !theirs?.[0]?.main_thread_cpu_us) return undefined;
      return Number(
        median(ours.map((run, i) => theirs[i]!.main_thread_cpu_us! / run.main_thread_cpu_us!)).toFixed(2),
      );
    };

    // The same route once more with a lighter client than autocannon, which also reports the p99
    // without each connection's first request (those wait in a saturated server's accept queue).
    const quick = process.env.BENCH_QUICK === "1";
    const keepAlive: Record<string, unknown> = {};
    for (const name of quick ? [] : ["app", "cluster"]) {
      const target = targets.find((t) => t.name === name);
      if (target)
        keepAlive[name] = await keepAliveLoad({
          url: target.load.url,
          headers: target.load.headers,
          connections: CONNECTIONS,
          seconds: SECONDS,
        });
    }

    const mcp: Record<string, unknown> = quick
      ? {}
      : { app: await mcpFigures(app.url, token, app.child.pid!) };
    const cases: Record<string, unknown> = quick ? {} : { app: await pipeline(app.url, token, 50) };
    if (cluster && !quick) {
      const clusterToken = await m2mToken(cluster.url, credentials);
      mcp.cluster = await mcpFigures(cluster.url, clusterToken, cluster.child.pid!, true);
      cases.cluster = await pipeline(cluster.url, clusterToken, 50);
    }

    process.stdout.write(
      `${JSON.stringify({
        benchmark: "rest",
        database: databaseUrl ? "postgres" : "pglite",
        redis: Boolean(databaseUrl && process.env.REDIS_URL),
        log_level: process.env.BENCH_LOG_LEVEL ?? "info",
        cores: os.availableParallelism(),
        workers: databaseUrl ? WORKERS : 1,
        connections: CONNECTIONS,
        seconds_per_run: SECONDS,
        rounds: ROUNDS,
        get_case: rest,
        ratios: {
          app_vs_floor: ratio("app", "floor"),
          floor_dynamic_vs_floor: ratio("floor_dynamic", "floor"),
          app_vs_floor_dynamic: ratio("app", "floor_dynamic"),
          app_vs_floor_by_cpu: cpuRatio("app", "floor"),
          app_vs_floor_dynamic_by_cpu: cpuRatio("app", "floor_dynamic"),
          app_vs_bare: ratio("app", "bare"),
          cluster_vs_bare: ratio("cluster", "bare"),
          cluster_vs_cluster_floor: ratio("cluster", "cluster_floor"),
        },
        targets: {
          // Against the trivial handler on a static path, and on a path with a parameter as
          // /v1/cases/{id} has (the same Next.js routing work; docs/decisions.md, "Performance").
          app_vs_floor: {
            target: 0.9,
            floor: atLeast(ratio("app", "floor"), 0.9),
            floor_same_route_shape: atLeast(ratio("app", "floor_dynamic"), 0.9),
          },
          cluster_vs_bare: databaseUrl
            ? { target: 0.35, met: (ratio("cluster", "bare") ?? 0) >= 0.35 }
            : undefined,
          // Each shape on its own: one process, and (PostgreSQL) every core.
          p99_ms: {
            target: 150,
            app: { p99_ms: rest.app?.p99_ms, met: (rest.app?.p99_ms ?? Infinity) <= 150 },
            cluster: rest.cluster
              ? { p99_ms: rest.cluster.p99_ms, met: rest.cluster.p99_ms <= 150 }
              : undefined,
          },
        },
        get_case_keepalive_client: keepAlive,
        mcp_search_symptoms: mcp,
        pipeline_50_cases: cases,
        memory_mb: { app_idle_rss: idleRss, app_after_rss: rssMb(app.child.pid!) },
      })}\n`,
    );
  } finally {
    for (const proc of procs.reverse()) await stop(proc);
    if (serverUrl && database) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.end();
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
