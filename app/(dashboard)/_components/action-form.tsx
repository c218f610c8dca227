"use client";
// A one-button form for a bound server action, with a pending label and the action's error; with
// `confirm`, the first press asks for confirmation (focus moves to it) and only the second acts.
import { useActionState, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { RevealedValues } from "./revealed-values";

export interface ActionResult {
  error?: string;
  /** Values shown once, e.g. a new client secret. */
  reveal?: { label: string; value: string }[];
}

export function ActionForm({
  action,
  label,
  pendingLabel,
  variant = "primary",
  confirm,
  disabled,
  testId,
}: {
  action: () => Promise<ActionResult>;
  label: string;
  pendingLabel: string;
  variant?: "primary" | "secondary" | "danger";
  confirm?: { prompt: string; confirmLabel: string };
  disabled?: boolean;
  testId?: string;
}) {
  const [state, formAction, pending] = useActionState(async () => action(), {} as ActionResult);
  const [asking, setAsking] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const className = `button${variant === "primary" ? "" : ` ${variant}`}`;
  // The confirming button only works once React runs; until then it is disabled, so an early press
  // is never silently lost.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);

  if (confirm && !asking) {
    return (
      <div className="action-form" data-testid={testId}>
        <button
          type="button"
          className={className}
          onClick={() => setAsking(true)}
          disabled={disabled || !hydrated}
        >
          {label}
        </button>
        {state.error ? (
          <p className="alert" role="alert">
            {state.error}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <form action={formAction} className="action-form" data-testid={testId}>
      {confirm ? (
        <div className="confirm-box" role="group" aria-label={confirm.prompt}>
          <p>{confirm.prompt}</p>
          <div className="actions">
            <button ref={confirmButton} type="submit" className={className} disabled={pending}>
              {pending ? pendingLabel : confirm.confirmLabel}
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={() => setAsking(false)}
              disabled={pending}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className={className} disabled={pending || disabled}>
          {pending ? pendingLabel : label}
        </button>
      )}
      {state.error ? (
        <p className="alert" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.reveal ? <RevealedValues values={state.reveal} /> : null}
    </form>
  );
}

function noSubscription() {
  return () => {};
}
