"use client";
// The operators' create forms (machine client, veterinarian); what they create is shown once.
import { useActionState } from "react";
import type { OperatorResult } from "../operators/actions";
import { RevealedValues } from "./revealed-values";

type FormAction = (previous: OperatorResult, form: FormData) => Promise<OperatorResult>;

function Outcome({ state, id }: { state: OperatorResult; id: string }) {
  return (
    <>
      {state.error ? (
        <p className="alert" role="alert" id={id}>
          {state.error}
        </p>
      ) : null}
      {state.reveal ? <RevealedValues values={state.reveal} /> : null}
    </>
  );
}

export function CreateClientForm({
  action,
  scopes,
}: {
  action: FormAction;
  scopes: { value: string; description: string }[];
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="stack" aria-label="Create a machine client">
      <label htmlFor="client-name">Name</label>
      <input id="client-name" name="name" required maxLength={200} placeholder="Practice management system" />
      <fieldset className="checkboxes">
        <legend>Scopes</legend>
        {scopes.map((scope) => (
          <label key={scope.value} className="checkbox">
            <input type="checkbox" name="scopes" value={scope.value} defaultChecked />
            <span>
              <code>{scope.value}</code> <span className="muted small">{scope.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <label htmlFor="client-origins">Embed origins (optional, one per line)</label>
      <textarea
        id="client-origins"
        name="embed_origins"
        rows={2}
        placeholder="https://practice.example"
        aria-describedby="origins-hint"
      />
      <p id="origins-hint" className="muted small">
        Pages on these origins may frame the diagnostics component for this client&apos;s sessions.
      </p>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Creating…" : "Create client"}
        </button>
      </div>
      <Outcome state={state} id="client-error" />
    </form>
  );
}

export function CreateVetForm({ action }: { action: FormAction }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="stack" aria-label="Create a veterinarian">
      <label htmlFor="vet-email">Email</label>
      <input id="vet-email" name="email" type="email" required autoComplete="off" />
      <label htmlFor="vet-name">Name</label>
      <input id="vet-name" name="name" required maxLength={200} autoComplete="off" />
      <label htmlFor="vet-password">Password (optional)</label>
      <input
        id="vet-password"
        name="password"
        type="password"
        autoComplete="new-password"
        aria-describedby="password-hint"
      />
      <p id="password-hint" className="muted small">
        Leave empty to generate one, shown once.
      </p>
      <label className="checkbox">
        <input type="checkbox" name="admin" />
        <span>Administrator (can use this Operators page)</span>
      </label>
      <div>
        <button type="submit" className="button" disabled={pending}>
          {pending ? "Creating…" : "Create veterinarian"}
        </button>
      </div>
      <Outcome state={state} id="vet-error" />
    </form>
  );
}
