// A case that does not exist, or is another vet's: the same answer for both.
import Link from "next/link";

export default function CaseNotFound() {
  return (
    <section className="card empty-state" aria-labelledby="missing-title">
      <h1 id="missing-title">Case not found</h1>
      <p className="muted">It may have been deleted, or the link is wrong.</p>
      <Link href="/cases" className="button secondary">
        Back to your cases
      </Link>
    </section>
  );
}
