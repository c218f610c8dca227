"use client";
// Credentials shown exactly once (a new client secret, a generated password), with copy buttons.
import { CopyButton } from "./copy-button";

export function RevealedValues({ values }: { values: { label: string; value: string }[] }) {
  return (
    <div className="reveal" role="status" data-testid="revealed">
      <p>
        <strong>Copy these now: they are not shown again.</strong>
      </p>
      <dl className="facts">
        {values.map((entry) => (
          <div key={entry.label} className="reveal-row">
            <dt>{entry.label}</dt>
            <dd>
              <code data-testid={`revealed-${entry.label.toLowerCase().replace(/\s+/g, "-")}`}>
                {entry.value}
              </code>{" "}
              <CopyButton value={entry.value} label={`Copy ${entry.label}`} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
