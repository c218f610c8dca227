// The message for a session that does not exist or has expired: no case data, just what to do.
import styles from "./diagnostics.module.css";

export function SessionMessage({ state }: { state: "unknown" | "expired" }) {
  return (
    <main className={styles.message} data-testid="session-error">
      <h1>{state === "expired" ? "This session has expired" : "Session not found"}</h1>
      <p role="alert">
        {state === "expired"
          ? "Diagnostics sessions last a limited time. Open the diagnostics again from your practice software to continue; your saved changes are kept."
          : "This diagnostics link is not valid. Open the diagnostics again from your practice software."}
      </p>
    </main>
  );
}
