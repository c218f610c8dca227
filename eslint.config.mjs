import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      ".data/**",
      "node_modules/**",
      "db/migrations/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through lib/env.ts." },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // lib/ is the domain every surface shares: it is handed a case runner (inngest/runner.ts)
    // rather than importing Inngest or a runner, and it never reaches into app/.
    files: ["lib/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["inngest", "inngest/*", "@inngest/*", "@/inngest/*", "**/inngest/*"],
              message:
                "lib/ does not import Inngest or a runner: take a CaseRunner (lib/cases/case-runner.ts).",
            },
            { group: ["@/app/*", "**/app/*"], message: "lib/ does not import from app/." },
          ],
        },
      ],
    },
  },
  {
    files: [
      "lib/env.ts",
      "*.config.ts",
      "*.config.mjs",
      "scripts/**",
      "e2e/**",
      "bench/**",
      "test/**",
      "db/seed/*.mjs",
    ],
    rules: { "no-restricted-properties": "off" },
  },
];

export default config;
