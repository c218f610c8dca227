// The AI clients (MCP OAuth clients) a vet has authorised: one entry per client, with the scopes
// the vet allowed and when, while at least one of its grants is still live or the consent stands.
import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "@/db";
import { oauthClients, oauthConsents, oauthGrants } from "@/db/schema";
import { accessLevelOf, type AccessLevel } from "@/lib/auth/scopes";

export interface Connection {
  clientId: string;
  /** The client's registered name, or its host when it registered by metadata document. */
  name: string;
  scopes: string[];
  /** What those scopes let the client do: read only, or read and write (the consent page's choice). */
  access: AccessLevel;
  /** When the vet first authorised the client (its oldest live grant, or the consent). */
  authorisedAt: Date;
  /** The most recent authorisation (a new grant, or consent given again). */
  lastAuthorisedAt: Date;
}

function clientName(clientId: string, registeredName: string | null, source: string): string {
  if (registeredName) return registeredName;
  if (source === "metadata_document") {
    try {
      return new URL(clientId).host;
    } catch {
      // not a URL: fall through
    }
  }
  return "An unnamed app";
}

export async function listConnections(db: Database, veterinarianId: string): Promise<Connection[]> {
  const [grants, consents] = await Promise.all([
    db
      .select({
        clientId: oauthGrants.clientId,
        scopes: oauthGrants.scopes,
        createdAt: oauthGrants.createdAt,
        clientName: oauthClients.clientName,
        source: oauthClients.source,
      })
      .from(oauthGrants)
      .innerJoin(oauthClients, eq(oauthClients.clientId, oauthGrants.clientId))
      .where(and(eq(oauthGrants.veterinarianId, veterinarianId), isNull(oauthGrants.revokedAt))),
    db
      .select({
        clientId: oauthConsents.clientId,
        scopes: oauthConsents.scopes,
        grantedAt: oauthConsents.grantedAt,
        clientName: oauthClients.clientName,
        source: oauthClients.source,
      })
      .from(oauthConsents)
      .innerJoin(oauthClients, eq(oauthClients.clientId, oauthConsents.clientId))
      .where(eq(oauthConsents.veterinarianId, veterinarianId)),
  ]);
  const byClient = new Map<string, Connection>();
  const add = (
    row: { clientId: string; clientName: string | null; source: string; scopes: string[] },
    at: Date,
  ) => {
    const existing = byClient.get(row.clientId);
    if (!existing) {
      byClient.set(row.clientId, {
        clientId: row.clientId,
        name: clientName(row.clientId, row.clientName, row.source),
        scopes: [...row.scopes],
        access: accessLevelOf(row.scopes),
        authorisedAt: at,
        lastAuthorisedAt: at,
      });
      return;
    }
    existing.scopes = [...new Set([...existing.scopes, ...row.scopes])];
    existing.access = accessLevelOf(existing.scopes);
    if (at < existing.authorisedAt) existing.authorisedAt = at;
    if (at > existing.lastAuthorisedAt) existing.lastAuthorisedAt = at;
  };
  for (const grant of grants) add(grant, grant.createdAt);
  for (const consent of consents) add(consent, consent.grantedAt);
  return [...byClient.values()].sort(
    (a, b) => b.lastAuthorisedAt.getTime() - a.lastAuthorisedAt.getTime() || a.name.localeCompare(b.name),
  );
}
