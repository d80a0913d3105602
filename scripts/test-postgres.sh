#!/usr/bin/env bash
# Starts Debian's PostgreSQL cluster and gives the tests a role that may create databases:
#   TEST_DATABASE_URL=postgres://iqa_test:iqa_test@127.0.0.1:5432/postgres
# Run as root (as CI is). Safe to run again: a running cluster and an existing role are left as they are.
set -euo pipefail
version=$(ls /etc/postgresql | sort -n | tail -1)
if [ -z "$version" ]; then
  echo "No PostgreSQL cluster: apt-get install -y postgresql" >&2
  exit 1
fi
pg_ctlcluster "$version" main status >/dev/null 2>&1 || pg_ctlcluster "$version" main start
for attempt in $(seq 1 30); do
  su postgres -c "psql -qtAc 'select 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -v ON_ERROR_STOP=1 -qtA" <<'SQL'
do $$
begin
  if not exists (select from pg_roles where rolname = 'iqa_test') then
    create role iqa_test login createdb password 'iqa_test';
  end if;
end
$$;
-- Dropping a test database WITH (FORCE) ends every session on it, an autovacuum worker's too (it has no role the test
-- role could be a member of): that needs pg_signal_backend.
grant pg_signal_backend to iqa_test;
SQL
echo "PostgreSQL $version is running; the tests use the role iqa_test"
