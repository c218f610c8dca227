-- The embedded identity provider now keys its sessions, interactions, codes and tokens by the
-- SHA-256 of their ids (issue 14, finding 14b). Rows written before are stored under raw ids: they
-- can no longer be found, and keeping them would keep live-looking credentials in the table until
-- they expire. Remove them; vets sign in at /idp again once.
DELETE FROM "identity_provider_payloads";
