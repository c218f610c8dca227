// Finding the client of a request: a registered client (RFC 7591) by its id, or a client ID
// metadata document client by its URL (fetched and cached on /authorize).
import { eq } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthClients } from "@/db/schema";
import { checkRateLimit, type LimiterSpec } from "@/lib/http/rate-limit";
import {
  isMetadataDocumentClientId,
  MetadataDocumentError,
  resolveMetadataDocumentClient,
  type OAuthClientRow,
} from "./client-metadata-document";
import { AuthorizationPageError } from "./errors";
import type { DocumentFetcher } from "./safe-fetch";

export type { OAuthClientRow };

/** Metadata-document fetches triggered per client IP, so /authorize cannot be used to hammer other sites. */
export const METADATA_FETCHES_PER_IP: LimiterSpec = {
  name: "mcp-cimd-fetches",
  points: 30,
  durationSeconds: 300,
};

const MAX_CLIENT_ID_LENGTH = 2000;

/** A stored client (registered, or a cached metadata document), or undefined. */
export async function findClient(db: Database, clientId: string): Promise<OAuthClientRow | undefined> {
  if (!clientId || clientId.length > MAX_CLIENT_ID_LENGTH) return undefined;
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId));
  return row;
}

/** The client of an /authorize request; every problem is an AuthorizationPageError (shown, not redirected). */
export async function resolveAuthorizationClient(
  db: Database,
  clientId: string,
  options: { clientIp: string; fetchDocument?: DocumentFetcher; now?: Date },
): Promise<OAuthClientRow> {
  if (isMetadataDocumentClientId(clientId) && clientId.length <= MAX_CLIENT_ID_LENGTH) {
    const cached = await findClient(db, clientId);
    const fresh = cached?.metadataExpiresAt && cached.metadataExpiresAt > (options.now ?? new Date());
    const fetches = fresh ? undefined : await checkRateLimit(METADATA_FETCHES_PER_IP, options.clientIp);
    if (fetches?.limited) {
      throw new AuthorizationPageError(
        "Too many requests",
        "Too many sign-in attempts from your network; wait a few minutes.",
        429,
        fetches,
      );
    }
    try {
      return await resolveMetadataDocumentClient(db, clientId, options);
    } catch (error) {
      if (error instanceof MetadataDocumentError) {
        throw new AuthorizationPageError("This app cannot be identified", error.message);
      }
      throw error;
    }
  }
  const client = await findClient(db, clientId);
  if (!client || client.source !== "registration") {
    throw new AuthorizationPageError(
      "Unknown app",
      "VetDx does not know this app (client_id). Its saved registration may be stale: remove the VetDx connection in the app and add it again.",
    );
  }
  return client;
}
