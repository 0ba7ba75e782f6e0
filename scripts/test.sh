#!/usr/bin/env bash
# Every test: type checks, the API suite (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set)
# and the browser tests in Chromium against the real server. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json test-results/*.txt
# Ctrl-C stops the suites running in the background too.
trap 'trap - INT TERM; kill 0' INT TERM

fail() { echo "$1" >&2; echo "0 passed, 1 failed"; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "API suite: SQLite and PostgreSQL (${TEST_DATABASE_URL})"
else
  echo "API suite: SQLite only (set TEST_DATABASE_URL=postgres://... to run it on PostgreSQL too)"
fi

echo "== build"
npm run build --silent || fail "build failed"

# The tests that start the server as a process run the build just made (see serverArgs in
# apps/server/src/test/server-process.ts): it starts in half the time of the sources through tsx.
export TEST_SERVER_BUILT=1

# Two phases. First the API suite on SQLite, the type check and lint, and the browser suite, side by
# side: the API files wait much of their time (the database's writes, a campaign's pacing, a
# restart) and the browser suite fills those waits. Then, when TEST_DATABASE_URL is set, the API
# suite on PostgreSQL alone: beside the browser suite, on a slower machine of this kind, its kill -9
# and PostgreSQL files ran out of time. Lines start with "api |", "e2e |" and "pg |".
# TEST_SUITES_ONE_BY_ONE=1 runs the browser suite after the API suite on SQLite instead.
started=$(date +%s)
api_suite() { # project, report name, line prefix
  npx vitest run --project "$1" --reporter=default --reporter=json --outputFile="test-results/$2.json" 2>&1 | sed -u "s/^/$3 | /"
  rc=${PIPESTATUS[0]}
  echo "== API tests ($1) ended after $(elapsed "$started") (exit $rc)"
  return "$rc"
}
e2e_suite() {
  npm run test:e2e --silent 2>&1 | sed -u 's/^/e2e | /'
  rc=${PIPESTATUS[0]}
  echo "== browser tests ended after $(elapsed "$started") (exit $rc)"
  return "$rc"
}

echo "== API tests on SQLite, with the type check and lint beside them"
api_suite api-sqlite api-sqlite api &
api_pid=$!
if [ -z "${TEST_SUITES_ONE_BY_ONE:-}" ]; then
  echo "== browser tests, beside them"
  e2e_suite &
  e2e_pid=$!
fi

checks_failed=0
npm run typecheck --silent || { echo "type check failed" >&2; checks_failed=1; }
npm run lint --silent || { echo "lint failed (npm run format fixes the formatting)" >&2; checks_failed=$((checks_failed + 1)); }

wait "$api_pid"
api_rc=$?
if [ -z "${TEST_SUITES_ONE_BY_ONE:-}" ]; then
  wait "$e2e_pid"
  e2e_rc=$?
else
  echo "== browser tests"
  e2e_suite
  e2e_rc=$?
fi

pg_rc=0
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== API tests on PostgreSQL"
  api_suite api-postgres api-postgres pg
  pg_rc=$?
fi

# A failed check counts as a failed test in the last line.
node scripts/summarize-tests.mjs test-results "$checks_failed"
summary_rc=$?
if [ $api_rc -ne 0 ] || [ $e2e_rc -ne 0 ] || [ $pg_rc -ne 0 ] || [ $summary_rc -ne 0 ]; then exit 1; fi
