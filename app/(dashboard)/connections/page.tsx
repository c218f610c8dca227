// /connections — connect AI assistants over MCP (URL and instructions), the AI clients this vet has
// authorised with revoke, and the REST quick start with the vet's own data.
import type { Metadata } from "next";
import { getDb } from "@/db";
import { ACCESS_DESCRIPTIONS, SCOPE_DESCRIPTIONS, isScope } from "@/lib/auth/scopes";
import { searchCases } from "@/lib/cases/search-cases";
import { listConnections } from "@/lib/connections/list-connections";
import { getEnv } from "@/lib/env";
import { ActionForm } from "../_components/action-form";
import { formatDateTime } from "../_components/case-status";
import { CopyButton } from "../_components/copy-button";
import { requireVet } from "../session";
import { revokeConnectionAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connections" };

const SAMPLE_NOTES =
  "Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. No diarrhoea.";

function Snippet({ id, label, code }: { id: string; label: string; code: string }) {
  return (
    <div className="snippet">
      <div className="snippet-head">
        <span id={id} className="small muted">
          {label}
        </span>
        <CopyButton value={code} label={`Copy: ${label}`} />
      </div>
      <pre aria-labelledby={id} tabIndex={0}>
        <code>{code}</code>
      </pre>
    </div>
  );
}

export default async function ConnectionsPage() {
  const identity = await requireVet("/connections");
  const env = getEnv();
  const db = await getDb();
  const [connections, latest] = await Promise.all([
    listConnections(db, identity.veterinarianId),
    searchCases(db, { veterinarianId: identity.veterinarianId, pageSize: 1 }),
  ]);
  const mcpUrl = `${env.APP_URL}/mcp`;
  const example = latest.data[0];
  const notes = example?.notes.slice(0, 400) ?? SAMPLE_NOTES;
  const body = JSON.stringify({ notes });
  const quoted = `'${body.replace(/'/g, "'\\''")}'`;

  return (
    <>
      <h1>Connections</h1>
      <p className="muted">
        Use VetDx from an AI assistant over the Model Context Protocol, or from your own software over REST.
      </p>

      <section className="card" aria-labelledby="mcp-title">
        <h2 id="mcp-title">Connect an AI assistant</h2>
        <p>Your MCP server URL:</p>
        <div className="url-box">
          <code data-testid="mcp-url">{mcpUrl}</code>
          <CopyButton value={mcpUrl} label="Copy the MCP server URL" />
        </div>
        <p className="muted small">
          The assistant sends you here to sign in and asks your permission once; it then acts as you, on your
          cases only, until you revoke it below.
        </p>
        <div className="grid instructions">
          <section aria-labelledby="claude-title">
            <h3 id="claude-title">Claude</h3>
            <ol>
              <li>Settings → Connectors → Add custom connector.</li>
              <li>Name it VetDx and paste the URL above.</li>
              <li>Choose Connect, sign in and allow access.</li>
            </ol>
            <Snippet
              id="claude-code"
              label="Claude Code"
              code={`claude mcp add --transport http vetdx ${mcpUrl}`}
            />
          </section>
          <section aria-labelledby="chatgpt-title">
            <h3 id="chatgpt-title">ChatGPT</h3>
            <ol>
              <li>Settings → Apps &amp; Connectors → Advanced settings: turn on developer mode.</li>
              <li>Create a connector: paste the URL above, authentication OAuth.</li>
              <li>Sign in and allow access when asked.</li>
            </ol>
          </section>
          <section aria-labelledby="inspector-title">
            <h3 id="inspector-title">MCP Inspector</h3>
            <ol>
              <li>Run the command below; it opens in your browser.</li>
              <li>Transport: Streamable HTTP; URL: the one above.</li>
              <li>Open the auth settings, run the OAuth flow, then Connect.</li>
            </ol>
            <Snippet
              id="inspector-cmd"
              label="Start MCP Inspector"
              code="npx @modelcontextprotocol/inspector"
            />
          </section>
        </div>
      </section>

      <section className="card" aria-labelledby="clients-title">
        <h2 id="clients-title">Authorised AI clients</h2>
        {connections.length === 0 ? (
          <p className="muted" data-testid="no-connections">
            No AI client has access to your cases. Clients you allow appear here, and you can revoke them at
            any time.
          </p>
        ) : (
          <ul className="connection-list" data-testid="connections">
            {connections.map((connection) => (
              <li key={connection.clientId} className="connection" data-testid="connection">
                <div>
                  <h3 className="connection-name">{connection.name}</h3>
                  <p className="muted small">
                    Authorised{" "}
                    <time dateTime={connection.authorisedAt.toISOString()}>
                      {formatDateTime(connection.authorisedAt)}
                    </time>
                    {connection.lastAuthorisedAt.getTime() !== connection.authorisedAt.getTime() ? (
                      <>
                        {" "}
                        · last{" "}
                        <time dateTime={connection.lastAuthorisedAt.toISOString()}>
                          {formatDateTime(connection.lastAuthorisedAt)}
                        </time>
                      </>
                    ) : null}
                  </p>
                  <p className="small" data-testid="connection-access">
                    May: <strong>{ACCESS_DESCRIPTIONS[connection.access].label}</strong> —{" "}
                    {ACCESS_DESCRIPTIONS[connection.access].detail}
                  </p>
                  <ul className="chips" aria-label="Scopes">
                    {connection.scopes.map((scope) => (
                      <li
                        key={scope}
                        className="chip"
                        title={isScope(scope) ? SCOPE_DESCRIPTIONS[scope] : undefined}
                      >
                        {scope}
                      </li>
                    ))}
                  </ul>
                </div>
                <ActionForm
                  action={revokeConnectionAction.bind(null, connection.clientId)}
                  label={`Revoke ${connection.name}`}
                  pendingLabel="Revoking…"
                  variant="danger"
                  confirm={{
                    prompt: `Revoke ${connection.name}? Its access stops at once.`,
                    confirmLabel: "Yes, revoke",
                  }}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="rest-title">
        <h2 id="rest-title">REST quick start</h2>
        <p>
          Your practice software calls <code>{env.APP_URL}/v1</code> with a client ID and secret from your
          VetDx operator (<code>npm run admin -- clients create</code>). Full reference:{" "}
          <a href="/v1/openapi.json">OpenAPI description</a>.
        </p>
        <ol className="steps">
          <li>
            <Snippet
              id="rest-token"
              label="Get an access token"
              code={`TOKEN=$(curl -s -u "$VETDX_CLIENT_ID:$VETDX_CLIENT_SECRET" \\\n  -d grant_type=client_credentials \\\n  ${env.AUTH_URL}/oauth2/token | jq -r .access_token)`}
            />
          </li>
          <li>
            <Snippet
              id="rest-create"
              label={example ? "Create a case (from your latest notes)" : "Create a case"}
              code={`curl -s -X POST ${env.APP_URL}/v1/cases \\\n  -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\\n  -d ${quoted}`}
            />
          </li>
          <li>
            <Snippet
              id="rest-get"
              label="Read it once processed (status COMPLETED), then its differentials"
              code={`curl -s -H "Authorization: Bearer $TOKEN" ${env.APP_URL}/v1/cases/$CASE_ID\ncurl -s -H "Authorization: Bearer $TOKEN" ${env.APP_URL}/v1/cases/$CASE_ID/differentials`}
            />
          </li>
        </ol>
        <p className="muted small">
          A client acts as its own account: cases it creates are its own, not listed under yours.
        </p>
      </section>
    </>
  );
}
