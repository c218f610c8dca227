"use client";
// The dashboard's main navigation; marks the current page for sighted and screen-reader users.
import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavLink {
  href: string;
  label: string;
  /** Current only on this exact path (Cases is not current on /cases/new). */
  exact?: boolean;
}

function isCurrent(pathname: string, link: NavLink): boolean {
  if (link.exact) {
    return link.href === "/cases"
      ? pathname === "/cases" || (pathname.startsWith("/cases/") && pathname !== "/cases/new")
      : pathname === link.href;
  }
  return pathname === link.href || pathname.startsWith(`${link.href}/`);
}

export function DashboardNav({ links }: { links: NavLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="dashboard-nav">
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={isCurrent(pathname, link) ? "page" : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
