-- A live API key is a production credential (`curata keys create --live`): the accounts it acts for
-- are live accounts wherever it calls, so comply_test_controller refuses it (FORBIDDEN) whatever the
-- deployment and whatever the payload claims (docs/adcp.md "Deterministic testing"). Keys made
-- before this migration, and keys made without --live, keep the rule of the deployment.
ALTER TABLE api_keys ADD COLUMN live boolean NOT NULL DEFAULT false;
