#!/usr/bin/env bash
# Every test: type checks, the API suite (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set)
# and the browser tests in Chromium against the real server. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json
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

# The API suite runs with the type check and lint beside it (its files wait much of their time:
# the database's writes, a campaign's pacing, a restart), then the browser suite. Its lines start
# with "api |" and "e2e |". TEST_SUITES_SIDE_BY_SIDE=1 runs the browser suite beside the API suite
# instead: faster on a fast machine (21 minutes instead of 27 for .ci/run), but on a slower one of
# the same kind the API suite's kill -9 and PostgreSQL tests then ran out of time.
started=$(date +%s)
api_suite() {
  npx vitest run --reporter=default --reporter=json --outputFile=test-results/api.json 2>&1 | sed -u 's/^/api | /'
  rc=${PIPESTATUS[0]}
  echo "== API tests ended after $(elapsed "$started") (exit $rc)"
  return "$rc"
}
e2e_suite() {
  npm run test:e2e --silent 2>&1 | sed -u 's/^/e2e | /'
  rc=${PIPESTATUS[0]}
  echo "== browser tests ended after $(elapsed "$started") (exit $rc)"
  return "$rc"
}

echo "== API tests, with the type check and lint beside them"
api_suite &
api_pid=$!
if [ -n "${TEST_SUITES_SIDE_BY_SIDE:-}" ]; then
  echo "== browser tests, beside the API tests"
  e2e_suite &
  e2e_pid=$!
fi

checks_failed=0
npm run typecheck --silent || { echo "type check failed" >&2; checks_failed=1; }
npm run lint --silent || { echo "lint failed (npm run format fixes the formatting)" >&2; checks_failed=$((checks_failed + 1)); }

wait "$api_pid"
api_rc=$?
if [ -n "${TEST_SUITES_SIDE_BY_SIDE:-}" ]; then
  wait "$e2e_pid"
  e2e_rc=$?
else
  echo "== browser tests"
  e2e_suite
  e2e_rc=$?
fi

# A failed check counts as a failed test in the last line.
node scripts/summarize-tests.mjs test-results "$checks_failed"
summary_rc=$?
if [ $api_rc -ne 0 ] || [ $e2e_rc -ne 0 ] || [ $summary_rc -ne 0 ]; then exit 1; fi
