// The signed-in dashboard's frame: brand, navigation and the account menu around every page.
import Link from "next/link";
import type { ReactNode } from "react";
import { AccountMenu } from "./_components/account-menu";
import { DashboardNav } from "./_components/dashboard-nav";
import { currentVet } from "./session";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // Every page calls requireVet with its own path, so a signed-out visitor comes back to it.
  const identity = await currentVet();
  if (!identity) return <>{children}</>;
  const links = [
    { href: "/cases", label: "Cases", exact: true },
    { href: "/cases/new", label: "New case", exact: true },
    { href: "/connections", label: "Connections" },
    { href: "/profile", label: "Profile" },
    ...(identity.role === "admin" ? [{ href: "/operators", label: "Operators" }] : []),
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header dashboard-header">
        <Link href="/cases" className="brand brand-link">
          {/* eslint-disable-next-line @next/next/no-img-element -- static SVG logo */}
          <img src="/favicon.svg" alt="" width={28} height={28} />
          VetDx
        </Link>
        <DashboardNav links={links} />
        <AccountMenu name={identity.name} email={identity.email} />
      </header>
      <main id="main" className="page dashboard-page" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
