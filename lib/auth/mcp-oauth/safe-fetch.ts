// Fetching a client ID metadata document from the internet without becoming an SSRF proxy: https
// only, every DNS answer vetted by isPublicIpAddress, the connection made to the vetted address
// (no second lookup an attacker's DNS could answer differently), no redirects, 5 s, 64 KB.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPublicIpAddress } from "./public-address";

export const METADATA_DOCUMENT_TIMEOUT_MS = 5000;
export const METADATA_DOCUMENT_MAX_BYTES = 64 * 1024;

export interface FetchedDocument {
  status: number;
  /** The Cache-Control header, if any. */
  cacheControl: string | null;
  contentType: string | null;
  body: string;
}

/** How a metadata document is fetched; tests pass their own, production uses fetchPublicDocument. */
export type DocumentFetcher = (url: URL) => Promise<FetchedDocument>;

export class UnsafeFetchError extends Error {
  override name = "UnsafeFetchError";
}

type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * A `lookup` for net.connect that resolves once and refuses the whole name when any answer is not a
 * public address; the socket then connects to exactly the addresses vetted here.
 */
export function createVettedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        if (addresses.length === 0) throw new UnsafeFetchError(`${hostname} does not resolve`);
        const refused = addresses.find((entry) => !isPublicIpAddress(entry.address));
        if (refused) throw new UnsafeFetchError(`${hostname} resolves to a non-public address`);
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? addresses.filter((entry) => entry.family === wanted) : addresses;
        if (usable.length === 0) throw new UnsafeFetchError(`${hostname} has no IPv${wanted} address`);
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, "", 0));
  };
}

/** Fetches an https URL from a public address only; throws UnsafeFetchError for anything refused. */
export function fetchPublicDocument(
  url: URL,
  options: { resolve?: Resolver; timeoutMs?: number } = {},
): Promise<FetchedDocument> {
  if (url.protocol !== "https:") return Promise.reject(new UnsafeFetchError("only https URLs are fetched"));
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  // net.connect skips `lookup` for IP literals: vet those here.
  if (isIP(literal) && !isPublicIpAddress(literal)) {
    return Promise.reject(new UnsafeFetchError("the URL names a non-public address"));
  }
  return new Promise((resolve, reject) => {
    const request = https.get(
      url,
      {
        lookup: createVettedLookup(options.resolve),
        headers: { accept: "application/json", "user-agent": "VetDx-MCP-Authorization-Server" },
        signal: AbortSignal.timeout(options.timeoutMs ?? METADATA_DOCUMENT_TIMEOUT_MS),
        agent: false,
        maxHeaderSize: 16 * 1024,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.destroy();
          reject(
            new UnsafeFetchError(`the document URL redirects (HTTP ${status}); redirects are not followed`),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > METADATA_DOCUMENT_MAX_BYTES) {
            response.destroy();
            reject(new UnsafeFetchError(`the document is larger than ${METADATA_DOCUMENT_MAX_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status,
            cacheControl: header(response.headers["cache-control"]),
            contentType: header(response.headers["content-type"]),
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

function header(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
