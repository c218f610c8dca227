"use client";
// Copies a value to the clipboard and says so; the value stays selectable text beside it.
import { useState } from "react";

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  return (
    <span className="copy">
      <button
        type="button"
        className="button secondary small-button"
        aria-label={label}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied("yes");
          } catch {
            setCopied("no");
          }
          setTimeout(() => setCopied(null), 2500);
        }}
      >
        Copy
      </button>
      <span role="status" className="muted small">
        {copied === "yes" ? "Copied" : copied === "no" ? "Select the text to copy it" : ""}
      </span>
    </span>
  );
}
