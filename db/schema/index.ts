// The whole database schema, one module per aggregate.
export * from "./veterinarians";
export * from "./identity-provider";
export * from "./oauth";
export * from "./cases";
export * from "./catalogue";
