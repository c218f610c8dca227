// Dashboard sign-in (next-auth 4) against the identity provider: the embedded one at /idp by
// default, or the external OIDC provider from OIDC_*. Sessions are signed JWT cookies that carry
// the veterinarian id.
import "server-only";
import { and, eq } from "drizzle-orm";
import { getServerSession, type NextAuthOptions } from "next-auth";
import { getDb, type Database } from "@/db";
import { veterinarians } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { getOrCreateSecret } from "./app-secrets";
import { resolveHumanVeterinarian } from "./human-veterinarian";
import type { Identity } from "./identity";
import { DASHBOARD_CLIENT_ID, getFirstPartyClientSecrets } from "./idp/provider";
import { randomToken } from "./secrets";
import { SCOPES } from "./scopes";

export const DASHBOARD_PROVIDER_ID = "vetdx";
const SESSION_MAX_AGE_SECONDS = 8 * 3600;

interface OidcProfile {
  sub: string;
  email?: string;
  name?: string;
}

async function veterinarianIdFor(db: Database, profile: OidcProfile): Promise<string | undefined> {
  return (await resolveHumanVeterinarian(db, profile))?.id;
}

let cachedOptions: Promise<NextAuthOptions> | undefined;

export function getAuthOptions(): Promise<NextAuthOptions> {
  cachedOptions ??= buildAuthOptions();
  return cachedOptions;
}

async function buildAuthOptions(): Promise<NextAuthOptions> {
  const env = getEnv();
  const db = await getDb();
  const [clientSecrets, secret] = await Promise.all([
    env.embeddedIdentityProvider ? getFirstPartyClientSecrets(db) : undefined,
    getOrCreateSecret(db, "nextauth_secret", () => randomToken(32)),
  ]);
  return {
    secret,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    useSecureCookies: env.APP_URL.startsWith("https://"),
    providers: [
      {
        id: DASHBOARD_PROVIDER_ID,
        name: env.embeddedIdentityProvider ? "VetDx" : "your organisation",
        type: "oauth",
        wellKnown: `${env.AUTH_URL}/.well-known/openid-configuration`,
        clientId: env.embeddedIdentityProvider ? DASHBOARD_CLIENT_ID : env.OIDC_CLIENT_ID,
        clientSecret: clientSecrets?.dashboard ?? env.OIDC_CLIENT_SECRET,
        authorization: { params: { scope: "openid email profile" } },
        idToken: true,
        checks: ["pkce", "state"],
        profile: (profile: OidcProfile) => ({
          id: profile.sub,
          name: profile.name ?? profile.email,
          email: profile.email,
        }),
      },
    ],
    callbacks: {
      async jwt({ token, profile }) {
        if (profile) token.vetId = await veterinarianIdFor(db, profile as OidcProfile);
        return token;
      },
      async session({ session, token }) {
        return { ...session, vetId: typeof token.vetId === "string" ? token.vetId : undefined };
      },
    },
  };
}

/** The signed-in vet of a dashboard request, or null when signed out or the account is gone. */
export async function getDashboardIdentity(): Promise<Identity | null> {
  const session = (await getServerSession(await getAuthOptions())) as { vetId?: string } | null;
  if (!session?.vetId) return null;
  const db = await getDb();
  const [vet] = await db
    .select()
    .from(veterinarians)
    .where(and(eq(veterinarians.id, session.vetId), eq(veterinarians.kind, "human")));
  if (!vet || vet.disabledAt) return null;
  return {
    veterinarianId: vet.id,
    kind: "human",
    email: vet.email,
    name: vet.name,
    role: vet.role,
    scopes: [...SCOPES],
    clientId: DASHBOARD_CLIENT_ID,
    authMethod: "session",
  };
}
