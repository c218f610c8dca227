// The home page: who is signed in, the way into the dashboard, and where each VetDx surface lives.
import Link from "next/link";
import { SignInButton, SignOutButton } from "@/app/_components/sign-in-button";
import { getDashboardIdentity } from "@/lib/auth/dashboard-auth";
import { getEnv } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const env = getEnv();
  const identity = await getDashboardIdentity();
  return (
    <>
      <header className="site-header">
        <span className="brand">
          {/* eslint-disable-next-line @next/next/no-img-element -- static SVG logo */}
          <img src="/favicon.svg" alt="" width={28} height={28} />
          VetDx
        </span>
        <nav aria-label="Account" className="actions" style={{ marginTop: 0, alignItems: "center" }}>
          {identity ? (
            <>
              <span data-testid="signed-in-as">
                {identity.name} <span className="muted">({identity.email})</span>
              </span>
              <SignOutButton />
            </>
          ) : (
            <SignInButton />
          )}
        </nav>
      </header>
      <main className="page">
        <h1>{identity ? `Welcome, ${identity.name}` : "Veterinary diagnostics from case notes"}</h1>
        <p className="muted">
          VetDx turns free-text case notes into a structured patient, clinical signs matched to a catalogue,
          ranked differential diagnoses and SOAP notes.
        </p>
        {identity ? (
          <p className="actions">
            <Link href="/cases" className="button">
              Open your cases
            </Link>
            <Link href="/cases/new" className="button secondary">
              New case
            </Link>
          </p>
        ) : null}
        <div className="grid">
          <section className="card" aria-labelledby="rest">
            <h2 id="rest">REST API</h2>
            <p>
              Base <code>{env.APP_URL}/v1</code>; machine tokens from <code>{env.AUTH_URL}/oauth2/token</code>
              .
            </p>
            <Link href="/v1/openapi.json">OpenAPI description</Link>
          </section>
          <section className="card" aria-labelledby="mcp">
            <h2 id="mcp">AI assistants</h2>
            <p>
              Connect Claude or ChatGPT to <code>{env.APP_URL}/mcp</code>.
            </p>
          </section>
        </div>
      </main>
    </>
  );
}
