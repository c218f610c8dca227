// A dashboard page that does not exist (or Operators for a vet without the admin role).
import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <section className="card empty-state" aria-labelledby="missing-title">
      <h1 id="missing-title">Page not found</h1>
      <p className="muted">There is nothing here, or you do not have access to it.</p>
      <Link href="/cases" className="button secondary">
        Your cases
      </Link>
    </section>
  );
}
