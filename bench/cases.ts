// Case pipeline throughput and latency through the REST API, with the embedded defaults.
// Starts the server, submits N cases at once (default 20), polls each as the spec's reference
// client does (1 s, ×1.5, capped at 30 s, 20 attempts), and prints one JSON object:
// processing latency from the server's own timestamps (created_at → COMPLETED's updated_at),
// the latency the polling client observed, cases/second, and errors.
// Run: npm run bench:cases [-- N]
import { percentiles, startServer } from "./lib/server";

const NOTES = [
  "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. No diarrhoea. T 39.9",
  "Tom, 12yo MN DSH cat, 3.9kg. Weight loss, polyphagia, vomiting, PU/PD. HR 240.",
  "Max 7y ME GSD 38kg - acute onset hindlimb lameness, non weight bearing L hind, no trauma seen. Eating well.",
  "Thumper, 3y MN rabbit (lop), 2.1kg. Not eaten since last night, no faeces passed, hunched, teeth grinding.",
  "Bay gelding 12y, 550kg. Pawing, rolling, flank watching since 6am. No droppings. HR 60, reduced gut sounds.",
];

async function main() {
  const total = Number(process.argv[2] ?? 20);
  const server = await startServer();
  try {
    // The server's own answer, not an assumption: it runs on PostgreSQL when DATABASE_URL is set.
    const { database } = (await (await fetch(`${server.url}/readyz`)).json()) as { database: string };
    const token = await server.token("vetdx/read vetdx/write");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: total }, async (_, index) => {
        const postedAt = performance.now();
        const created = await fetch(`${server.url}/v1/cases`, {
          method: "POST",
          headers,
          body: JSON.stringify({ notes: NOTES[index % NOTES.length] }),
        });
        if (created.status !== 201) return { error: `POST ${created.status}` };
        const { id } = (await created.json()) as { id: string };
        let delay = 1000;
        for (let attempt = 0; attempt < 20; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, delay));
          delay = Math.min(delay * 1.5, 30_000);
          const response = await fetch(`${server.url}/v1/cases/${id}`, { headers });
          const body = (await response.json()) as { status: string; created_at: string; updated_at: string };
          if (body.status === "COMPLETED" || body.status === "ERROR") {
            return {
              status: body.status,
              createdAt: Date.parse(body.created_at),
              completedAt: Date.parse(body.updated_at),
              processingMs: Date.parse(body.updated_at) - Date.parse(body.created_at),
              observedMs: performance.now() - postedAt,
            };
          }
        }
        return { error: "gave up polling" };
      }),
    );
    type Done = { createdAt: number; completedAt: number; processingMs: number; observedMs: number };
    const completed = results.filter((r) => "status" in r && r.status === "COMPLETED") as Done[];
    // Throughput on the server's clock: first case created to last case completed.
    const spanMs =
      Math.max(...completed.map((r) => r.completedAt)) - Math.min(...completed.map((r) => r.createdAt));
    process.stdout.write(
      `${JSON.stringify({
        benchmark: "cases",
        database,
        concurrency: total,
        completed: completed.length,
        errors: results.length - completed.length,
        processing_ms: percentiles(completed.map((r) => r.processingMs)),
        cases_per_second: Number((completed.length / (Math.max(spanMs, 1) / 1000)).toFixed(1)),
        client_observed_ms: percentiles(completed.map((r) => r.observedMs)),
        wall_ms: Math.round(performance.now() - started),
      })}\n`,
    );
  } finally {
    await server.stop();
  }
}

void main();
