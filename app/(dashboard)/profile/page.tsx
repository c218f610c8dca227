// /profile — who you are signed in as: the same identity the MCP `whoami` tool reports.
import type { Metadata } from "next";
import { SCOPE_DESCRIPTIONS } from "@/lib/auth/scopes";
import { getEnv } from "@/lib/env";
import { SignOutButton } from "@/app/_components/sign-in-button";
import { requireVet } from "../session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Profile" };

export default async function ProfilePage() {
  const identity = await requireVet("/profile");
  const env = getEnv();
  return (
    <>
      <h1>Profile</h1>
      <section className="card" aria-labelledby="identity-title">
        <h2 id="identity-title">Signed in as</h2>
        <dl className="facts" data-testid="profile">
          <dt>Name</dt>
          <dd data-testid="profile-name">{identity.name}</dd>
          <dt>Email</dt>
          <dd data-testid="profile-email">{identity.email ?? "—"}</dd>
          <dt>Role</dt>
          <dd>{identity.role === "admin" ? "Administrator (operator)" : "Veterinarian"}</dd>
          <dt>Account</dt>
          <dd>{identity.kind === "human" ? "Person" : "Machine client"}</dd>
          <dt>Veterinarian ID</dt>
          <dd>
            <code data-testid="profile-id">{identity.veterinarianId}</code>
          </dd>
          <dt>Signed in with</dt>
          <dd>
            {identity.authMethod === "session" ? "Dashboard session" : identity.authMethod}
            {identity.clientId ? (
              <>
                {" "}
                (client <code>{identity.clientId}</code>)
              </>
            ) : null}
          </dd>
          <dt>Identity provider</dt>
          <dd>
            <code>{env.AUTH_URL}</code>
          </dd>
        </dl>
      </section>
      <section className="card" aria-labelledby="scopes-title">
        <h2 id="scopes-title">What you can do</h2>
        <ul className="scope-list">
          {identity.scopes.map((scope) => (
            <li key={scope}>
              <code>{scope}</code> — {SCOPE_DESCRIPTIONS[scope]}
            </li>
          ))}
        </ul>
        <p className="muted small">
          An AI assistant you connect gets only the scopes you allow it; see Connections.
        </p>
      </section>
      <div className="actions">
        <SignOutButton />
      </div>
    </>
  );
}
