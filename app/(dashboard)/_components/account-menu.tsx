"use client";
// The account menu: who is signed in, their profile and sign out. A disclosure (<details>) so it
// works from the keyboard without script; Escape closes it.
import Link from "next/link";
import { useRef } from "react";
import { SignOutButton } from "@/app/_components/sign-in-button";

export function AccountMenu({ name, email }: { name: string; email: string | null }) {
  const details = useRef<HTMLDetailsElement>(null);
  return (
    <details
      ref={details}
      className="account-menu"
      onKeyDown={(event) => {
        if (event.key === "Escape" && details.current?.open) {
          details.current.open = false;
          details.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary aria-label={`Account: ${name}`}>
        <span className="avatar" aria-hidden="true">
          {name.trim().charAt(0).toUpperCase() || "?"}
        </span>
        <span className="account-name">{name}</span>
      </summary>
      <div className="account-popover">
        <p data-testid="signed-in-as">
          <strong>{name}</strong>
          {email ? <span className="muted small account-email">{email}</span> : null}
        </p>
        <Link href="/profile" onClick={() => details.current?.removeAttribute("open")}>
          Your profile
        </Link>
        <SignOutButton />
      </div>
    </details>
  );
}
