-- Vault's database roles: one login role per service, owning its schema and
-- its migration table, and nothing else (docs/adr/0008). Input: the setting
-- vault.service_roles, a JSON array of {"schema", "role", "password"}.
DO $provision$
DECLARE
  database text := current_database();
  service record;
  object record;
BEGIN
  -- The services' migrations take the same lock: no owner changes under a running migration.
  PERFORM pg_advisory_xact_lock(hashtext('vault:migrate'));

  -- Only the roles below (and superusers) may connect; nobody else creates anything here.
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', database);
  IF to_regnamespace('public') IS NOT NULL THEN
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
  END IF;
  -- The migration tables' schema stays the administrator's: a role may enter it, not create in it.
  CREATE SCHEMA IF NOT EXISTS vault_migrations;
  REVOKE ALL ON SCHEMA vault_migrations FROM PUBLIC;

  FOR service IN
    SELECT s.schema, s.role, s.password
      FROM json_to_recordset(current_setting('vault.service_roles')::json) AS s(schema text, role text, password text)
  LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = service.role) THEN
      EXECUTE format('CREATE ROLE %I', service.role);
    END IF;
    EXECUTE format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD %L',
                   service.role, service.password);
    FOR object IN
      SELECT g.rolname FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = service.role::regrole
    LOOP
      EXECUTE format('REVOKE %I FROM %I', object.rolname, service.role);
    END LOOP;
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM %I', database, service.role);
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', database, service.role);

    -- The service's schema, and whatever it made there while it connected as a superuser, become its role's.
    EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', service.schema, service.role);
    EXECUTE format('ALTER SCHEMA %I OWNER TO %I', service.schema, service.role);
    EXECUTE format('REVOKE ALL ON SCHEMA %I FROM PUBLIC', service.schema);
    FOR object IN
      SELECT c.oid::regclass::text AS name, c.relkind FROM pg_class c
       WHERE c.relnamespace = service.schema::regnamespace
         AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
         AND c.relowner <> service.role::regrole
         -- A sequence of a serial or identity column follows its table.
         AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i') AND c.relkind = 'S')
    LOOP
      EXECUTE format('ALTER %s %s OWNER TO %I',
                     CASE object.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
                     object.name, service.role);
    END LOOP;
    FOR object IN
      SELECT t.oid::regtype::text AS name, t.typtype FROM pg_type t
       WHERE t.typnamespace = service.schema::regnamespace
         AND t.typtype IN ('e', 'd', 'r', 'c')
         AND (t.typrelid = 0 OR (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')
         AND t.typowner <> service.role::regrole
    LOOP
      EXECUTE format('ALTER %s %s OWNER TO %I', CASE object.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, object.name, service.role);
    END LOOP;
    FOR object IN
      SELECT p.oid::regprocedure::text AS name FROM pg_proc p
       WHERE p.pronamespace = service.schema::regnamespace AND p.proowner <> service.role::regrole
    LOOP
      EXECUTE format('ALTER ROUTINE %s OWNER TO %I', object.name, service.role);
    END LOOP;

    -- Its migration table, made here (the role may not create in vault_migrations) in the migrator's shape.
    EXECUTE format('CREATE TABLE IF NOT EXISTS vault_migrations.%I (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)', service.schema);
    EXECUTE format('ALTER TABLE vault_migrations.%I OWNER TO %I', service.schema, service.role);
    EXECUTE format('REVOKE ALL ON TABLE vault_migrations.%I FROM PUBLIC', service.schema);
    EXECUTE format('GRANT USAGE ON SCHEMA vault_migrations TO %I', service.role);
  END LOOP;
END
$provision$;
