// The message for a session that does not exist, has expired or was ended: no case data, just what to do.
import styles from "./diagnostics.module.css";

const MESSAGES = {
  unknown: [
    "Session not found",
    "This diagnostics link is not valid. Open the diagnostics again from your practice software.",
  ],
  expired: [
    "This session has expired",
    "Diagnostics sessions last a limited time. Open the diagnostics again from your practice software to continue; your saved changes are kept.",
  ],
  revoked: [
    "This session has ended",
    "The access that opened this session was withdrawn. Open the diagnostics again from your practice software; your saved changes are kept.",
  ],
} as const;

export function SessionMessage({ state }: { state: keyof typeof MESSAGES }) {
  const [title, text] = MESSAGES[state];
  return (
    <main className={styles.message} data-testid="session-error">
      <h1>{title}</h1>
      <p role="alert">{text}</p>
    </main>
  );
}
