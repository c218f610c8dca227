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
