// /operators — for administrators: machine clients (create with scopes and embed origins, rotate the
// secret, revoke) and veterinarians (create, list); the admin CLI's operations.
import type { Metadata } from "next";
import { getDb } from "@/db";
import { SCOPES, SCOPE_DESCRIPTIONS } from "@/lib/auth/scopes";
import { listMachineClients } from "@/lib/machine-clients/machine-clients";
import { listVeterinarians } from "@/lib/veterinarians/list-veterinarians";
import { ActionForm } from "../_components/action-form";
import { formatDateTime } from "../_components/case-status";
import { CreateClientForm, CreateVetForm } from "../_components/operator-forms";
import { requireAdmin } from "../session";
import {
  createMachineClientAction,
  createVeterinarianAction,
  revokeMachineClientAction,
  rotateMachineClientSecretAction,
} from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Operators" };

export default async function OperatorsPage() {
  await requireAdmin("/operators");
  const db = await getDb();
  const [clients, vets] = await Promise.all([listMachineClients(db), listVeterinarians(db)]);
  const people = vets.filter((vet) => vet.kind === "human");
  return (
    <>
      <h1>Operators</h1>
      <p className="muted">
        The same operations as <code>npm run admin</code>. Client secrets and generated passwords are shown
        once.
      </p>

      <section className="card" aria-labelledby="clients-title">
        <h2 id="clients-title">Machine clients</h2>
        {clients.length === 0 ? (
          <p className="muted">No machine clients yet.</p>
        ) : (
          <ul className="client-list" data-testid="machine-clients">
            {clients.map((client) => (
              <li
                key={client.clientId}
                className="client"
                data-testid="machine-client"
                data-client-id={client.clientId}
              >
                <div className="client-head">
                  <h3>{client.name}</h3>
                  {client.revokedAt ? (
                    <span className="badge status-error">Revoked</span>
                  ) : (
                    <span className="badge status-completed">Active</span>
                  )}
                </div>
                <dl className="facts compact">
                  <dt>Client ID</dt>
                  <dd>
                    <code>{client.clientId}</code>
                  </dd>
                  <dt>Scopes</dt>
                  <dd>{client.scopes.join(" ")}</dd>
                  <dt>Embed origins</dt>
                  <dd>{client.embedOrigins.length ? client.embedOrigins.join(", ") : "—"}</dd>
                  <dt>Created</dt>
                  <dd>{formatDateTime(client.createdAt)}</dd>
                  {client.revokedAt ? (
                    <>
                      <dt>Revoked</dt>
                      <dd>{formatDateTime(client.revokedAt)}</dd>
                    </>
                  ) : null}
                </dl>
                {client.revokedAt ? null : (
                  <div className="actions wrap">
                    {client.hasSecret ? (
                      <ActionForm
                        action={rotateMachineClientSecretAction.bind(null, client.clientId)}
                        label={`Rotate secret of ${client.name}`}
                        pendingLabel="Rotating…"
                        variant="secondary"
                        confirm={{
                          prompt: "Rotate the secret? The current one stops working at once.",
                          confirmLabel: "Yes, rotate",
                        }}
                      />
                    ) : null}
                    <ActionForm
                      action={revokeMachineClientAction.bind(null, client.clientId)}
                      label={`Revoke ${client.name}`}
                      pendingLabel="Revoking…"
                      variant="danger"
                      confirm={{
                        prompt: "Revoke this client? Its secret and tokens stop working at once.",
                        confirmLabel: "Yes, revoke",
                      }}
                    />
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        <h3>New machine client</h3>
        <CreateClientForm
          action={createMachineClientAction}
          scopes={SCOPES.map((scope) => ({ value: scope, description: SCOPE_DESCRIPTIONS[scope] }))}
        />
      </section>

      <section className="card" aria-labelledby="vets-title">
        <h2 id="vets-title">Veterinarians</h2>
        <div className="table-wrap">
          <table data-testid="vets">
            <caption className="visually-hidden">People who can sign in</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col" className="hide-narrow">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {people.map((vet) => (
                <tr key={vet.id}>
                  <td>
                    {vet.name}
                    {vet.disabledAt ? <span className="muted small"> (disabled)</span> : null}
                  </td>
                  <td className="break">{vet.email ?? "—"}</td>
                  <td>{vet.role === "admin" ? "Administrator" : "Veterinarian"}</td>
                  <td className="hide-narrow">{formatDateTime(vet.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h3>New veterinarian</h3>
        <CreateVetForm action={createVeterinarianAction} />
      </section>
    </>
  );
}
