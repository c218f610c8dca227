ALTER TABLE "component_sessions" ADD COLUMN "scopes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD COLUMN "machine_client_id" text;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD COLUMN "grant_id" uuid;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD CONSTRAINT "component_sessions_machine_client_id_machine_clients_client_id_fk" FOREIGN KEY ("machine_client_id") REFERENCES "public"."machine_clients"("client_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_sessions" ADD CONSTRAINT "component_sessions_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "component_sessions_machine_client_idx" ON "component_sessions" USING btree ("machine_client_id");--> statement-breakpoint
CREATE INDEX "component_sessions_grant_idx" ON "component_sessions" USING btree ("grant_id");