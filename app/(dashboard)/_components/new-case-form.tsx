"use client";
// The new-case form: notes typed or pasted, submitted to a server action that lands on the case.
import { useActionState, useState } from "react";
import type { FormState } from "../cases/actions";

export function NewCaseForm({
  action,
  maxLength,
}: {
  action: (previous: FormState, form: FormData) => Promise<FormState>;
  maxLength: number;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [length, setLength] = useState(state.notes?.length ?? 0);
  return (
    <form
      action={formAction}
      className="card stack"
      aria-describedby={state.error ? "new-case-error" : undefined}
    >
      <label htmlFor="notes">Case notes</label>
      <p id="notes-hint" className="muted small">
        Paste or type the consult notes as you wrote them: signalment, history, findings. VetDx keeps them
        verbatim.
      </p>
      <textarea
        id="notes"
        name="notes"
        rows={12}
        required
        maxLength={maxLength}
        defaultValue={state.notes}
        aria-describedby="notes-hint notes-count"
        aria-invalid={state.error ? true : undefined}
        onChange={(event) => setLength(event.target.value.length)}
        placeholder="Bella, 4yo FS Labrador Retriever, 28.5 kg. Vomiting x3 since yesterday, off her food, lethargic. No diarrhoea."
      />
      <p id="notes-count" className="muted small">
        {length.toLocaleString("en-GB")} / {maxLength.toLocaleString("en-GB")} characters
      </p>
      {state.error ? (
        <p className="alert" role="alert" id="new-case-error">
          {state.error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="button" disabled={pending} aria-disabled={pending}>
          {pending ? "Creating…" : "Create case"}
        </button>
      </div>
    </form>
  );
}
