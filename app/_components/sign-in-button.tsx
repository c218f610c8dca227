"use client";
// Starts the OpenID Connect sign-in at the identity provider.
import { signIn, signOut } from "next-auth/react";

export function SignInButton({ callbackUrl = "/" }: { callbackUrl?: string }) {
  return (
    <button type="button" className="button" onClick={() => void signIn("vetdx", { callbackUrl })}>
      Sign in
    </button>
  );
}

export function SignOutButton() {
  return (
    <button type="button" className="button secondary" onClick={() => void signOut({ callbackUrl: "/" })}>
      Sign out
    </button>
  );
}
