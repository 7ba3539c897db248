# compose.distributed.yaml's service-roles: once PostgreSQL answers over the
# network, each service's role and schema (the SQL of the chart's trial and of
# `npm run start:distributed`, libs/persistence/src/service-roles.sql.ts), then
# it exits; the services' migrations wait for the same lock.
set -eu
until pg_isready -q -h postgres -U vault -d vault; do sleep 1; done
psql -X -q -v ON_ERROR_STOP=1 -h postgres -U vault -d vault -v roles="$VAULT_SERVICE_ROLES" -f /provision/provision.psql
echo "the services' roles are in place"
