"use client";
// Something failed while rendering a dashboard page: say so plainly and offer to try again.
import Link from "next/link";

export default function DashboardError({
  reset,
  error,
}: {
  reset: () => void;
  error: Error & { digest?: string };
}) {
  return (
    <section className="card empty-state" role="alert" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p className="muted">
        VetDx could not show this page. Try again; if it keeps happening, tell your operator
        {error.digest ? (
          <>
            {" "}
            (reference <code>{error.digest}</code>)
          </>
        ) : null}
        .
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => reset()}>
          Try again
        </button>
        <Link href="/cases" className="button secondary">
          Your cases
        </Link>
      </div>
    </section>
  );
}
