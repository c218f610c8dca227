// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, MCP 2025-11): a
// client_id that is an https URL names a JSON document describing the client. It is fetched safely
// (safe-fetch.ts), validated like a registration, and cached in oauth_clients for its Cache-Control
// max-age, kept between 5 minutes and 24 hours. Such clients are public: they have no secret.
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthClients } from "@/db/schema";
import { logger } from "@/lib/logger";
import { normaliseClientMetadata } from "./client-metadata";
import { OAuthServerError } from "./errors";
import { fetchPublicDocument, type DocumentFetcher } from "./safe-fetch";

export const MIN_CACHE_SECONDS = 5 * 60;
export const MAX_CACHE_SECONDS = 24 * 3600;

export type OAuthClientRow = typeof oauthClients.$inferSelect;

export class MetadataDocumentError extends Error {
  override name = "MetadataDocumentError";
}

/** Whether a client_id is meant as a metadata document URL (as opposed to a registered id). */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return clientId.startsWith("https://");
}

/** Why a client_id URL is not an acceptable metadata document URL, or undefined. */
export function metadataDocumentUrlProblem(clientId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:") return "must use https";
  if (url.username || url.password) return "must not contain credentials";
  if (clientId.includes("#")) return "must not contain a fragment";
  if (url.pathname === "/" || url.pathname === "") return "must have a path";
  // URL parsing removes . and .. segments, default ports and upper case: the id must already be so.
  if (url.toString() !== clientId) return "must be in normalised form (no . or .. segments, lower-case host)";
  return undefined;
}

/** The cache lifetime for a Cache-Control header, bounded to [5 min, 24 h]. */
export function cacheSeconds(cacheControl: string | null): number {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl ?? "")?.[1];
  const seconds = maxAge === undefined ? MIN_CACHE_SECONDS : Number(maxAge);
  return Math.min(MAX_CACHE_SECONDS, Math.max(MIN_CACHE_SECONDS, seconds));
}

/** Fetches and validates the document behind `clientId`; throws MetadataDocumentError with the reason. */
export async function fetchClientMetadataDocument(clientId: string, fetchDocument: DocumentFetcher) {
  const urlProblem = metadataDocumentUrlProblem(clientId);
  if (urlProblem) throw new MetadataDocumentError(`The client_id URL ${urlProblem}`);
  let fetched;
  try {
    fetched = await fetchDocument(new URL(clientId));
  } catch (error) {
    // The reason (DNS answers, "non-public address", connection errors) maps the server's network
    // for whoever picks the URL: it goes to the log only.
    logger.warn({ clientId, err: error }, "client metadata document fetch failed");
    throw new MetadataDocumentError("The client metadata document could not be fetched");
  }
  if (fetched.status !== 200) {
    throw new MetadataDocumentError(`The client metadata document answered HTTP ${fetched.status}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(fetched.body);
  } catch {
    throw new MetadataDocumentError("The client metadata document is not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new MetadataDocumentError("The client metadata document is not a JSON object");
  }
  const fields = document as Record<string, unknown>;
  if (fields.client_id !== clientId) {
    throw new MetadataDocumentError("The client metadata document's client_id does not equal its URL");
  }
  if ("client_secret" in fields || "client_secret_expires_at" in fields) {
    throw new MetadataDocumentError("A client metadata document must not contain a client secret");
  }
  const method = fields.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    throw new MetadataDocumentError(
      "Only public clients (token_endpoint_auth_method none) may use a metadata document",
    );
  }
  let client;
  try {
    client = normaliseClientMetadata({ ...fields, token_endpoint_auth_method: "none" });
  } catch (error) {
    if (error instanceof OAuthServerError)
      throw new MetadataDocumentError(`The client metadata document: ${error.description}`);
    throw error;
  }
  return { client, cacheSeconds: cacheSeconds(fetched.cacheControl) };
}

/**
 * The client behind a metadata document URL: the cached row while it is fresh, otherwise fetched
 * again and cached. A document that can no longer be fetched is not used from a stale cache.
 */
export async function resolveMetadataDocumentClient(
  db: Database,
  clientId: string,
  options: { fetchDocument?: DocumentFetcher; now?: Date } = {},
): Promise<OAuthClientRow> {
  const now = options.now ?? new Date();
  const [cached] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
  if (cached && cached.source !== "metadata_document") {
    throw new MetadataDocumentError("This client_id is not a metadata document client");
  }
  if (cached?.metadataExpiresAt && cached.metadataExpiresAt > now) return cached;

  const { client, cacheSeconds: seconds } = await fetchClientMetadataDocument(
    clientId,
    options.fetchDocument ?? ((url) => fetchPublicDocument(url)),
  );
  const values = {
    secretHash: null,
    tokenEndpointAuthMethod: "none" as const,
    clientName: client.clientName,
    redirectUris: client.redirectUris,
    grantTypes: client.grantTypes,
    metadata: { ...client.metadata, client_id: clientId },
    metadataFetchedAt: now,
    metadataExpiresAt: new Date(now.getTime() + seconds * 1000),
  };
  const [row] = await db
    .insert(oauthClients)
    .values({ clientId, source: "metadata_document", ...values })
    .onConflictDoUpdate({ target: oauthClients.clientId, set: values })
    .returning();
  logger.info({ clientId, cacheSeconds: seconds }, "client metadata document fetched");
  if (!row) throw new Error("client metadata document row was not stored");
  return row;
}
