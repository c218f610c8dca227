// A minimal HTTP/1.1 load generator over raw keep-alive sockets, for bench/rest.ts. It costs the
// machine far less CPU than autocannon, and it records which requests were each connection's first:
// those wait in the server's accept queue while it is saturated (libuv accepts one connection per
// turn of the event loop), so the steady state is reported with them left out as well.
import net from "node:net";

export interface KeepAliveFigure {
  rps: number;
  p50_ms: number;
  p99_ms: number;
  /** Leaving out every connection's first request. */
  steady_p99_ms: number;
  max_first_request_ms: number;
  non2xx: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!) : 0;

export async function keepAliveLoad(options: {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<KeepAliveFigure> {
  const url = new URL(options.url);
  const head = Object.entries({ host: url.host, connection: "keep-alive", ...options.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  const request = `GET ${url.pathname}${url.search} HTTP/1.1\r\n${head}\r\n`;
  const all: number[] = [];
  const steady: number[] = [];
  const firsts: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  await Promise.all(
    Array.from(
      { length: options.connections },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(Number(url.port), url.hostname);
          socket.setNoDelay(true);
          let buffer = "";
          let sentAt = 0;
          let answered = 0;
          const send = () => {
            if (performance.now() >= deadline) return void socket.end(resolve);
            sentAt = performance.now();
            socket.write(request);
          };
          socket.on("connect", send);
          socket.on("error", reject);
          socket.on("data", (chunk) => {
            buffer += chunk.toString("latin1");
            for (;;) {
              const headerEnd = buffer.indexOf("\r\n\r\n");
              if (headerEnd < 0) return;
              const header = buffer.slice(0, headerEnd);
              const length = /\r\ncontent-length: *(\d+)/i.exec(header);
              let end: number;
              if (length) {
                end = headerEnd + 4 + Number(length[1]);
                if (buffer.length < end) return;
              } else if (/\r\ntransfer-encoding: *chunked/i.test(header)) {
                const last = buffer.indexOf("\r\n0\r\n\r\n", headerEnd);
                if (last < 0) return;
                end = last + 7;
              } else {
                end = headerEnd + 4;
              }
              if (!header.startsWith("HTTP/1.1 2")) non2xx += 1;
              buffer = buffer.slice(end);
              const latency = performance.now() - sentAt;
              all.push(latency);
              (answered++ === 0 ? firsts : steady).push(latency);
              send();
            }
          });
        }),
    ),
  );
  all.sort((a, b) => a - b);
  steady.sort((a, b) => a - b);
  return {
    rps: Math.round(all.length / ((performance.now() - started) / 1000)),
    p50_ms: quantile(all, 0.5),
    p99_ms: quantile(all, 0.99),
    steady_p99_ms: quantile(steady, 0.99),
    max_first_request_ms: Math.round(Math.max(0, ...firsts)),
    non2xx,
  };
}
