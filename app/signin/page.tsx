// /signin — the dashboard's sign-in page; errors from next-auth arrive as ?error=.
import { redirect } from "next/navigation";
import { SignInButton } from "@/app/_components/sign-in-button";
import { getDashboardIdentity } from "@/lib/auth/dashboard-auth";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

const messages: Record<string, string> = {
  OAuthCallback: "Signing in did not complete. Please try again.",
  OAuthSignin: "The identity provider could not be reached. Please try again.",
  SessionRequired: "Please sign in to continue.",
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { error, callbackUrl } = await searchParams;
  if (await getDashboardIdentity()) redirect("/");
  // A local path only: browsers read "//host" and "/\host" as another origin.
  const safeCallback = callbackUrl && /^\/(?![/\\])/.test(callbackUrl) ? callbackUrl : "/";
  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby="signin-title">
        <div className="brand">VetDx</div>
        <h1 id="signin-title">Sign in</h1>
        <p className="muted">Sign in with your VetDx veterinarian account.</p>
        {error ? (
          <p className="alert" role="alert">
            {messages[error] ?? "Signing in failed. Please try again."}
          </p>
        ) : null}
        <div className="actions">
          <SignInButton callbackUrl={safeCallback} />
        </div>
      </section>
    </main>
  );
}
