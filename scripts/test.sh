#!/usr/bin/env bash
# Every test: type checks, the API suite (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set)
# and the browser tests in Chromium against the real server. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
rm -f test-results/*.json

fail() { echo "$1" >&2; echo "0 passed, 1 failed"; exit 1; }

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "API suite: SQLite and PostgreSQL (${TEST_DATABASE_URL})"
else
  echo "API suite: SQLite only (set TEST_DATABASE_URL=postgres://... to run it on PostgreSQL too)"
fi

echo "== build, type check and lint"
npm run build --silent || fail "build failed"
npm run typecheck --silent || fail "type check failed"
npm run lint --silent || fail "lint failed (npm run format fixes the formatting)"

# The tests that start the server as a process run the build just made (see serverArgs in
# apps/server/src/test/server-process.ts): it starts in half the time of the sources through tsx.
export TEST_SERVER_BUILT=1

echo "== API tests"
npx vitest run --reporter=default --reporter=json --outputFile=test-results/api.json
api_rc=$?

echo "== browser tests"
npm run test:e2e --silent
e2e_rc=$?

node scripts/summarize-tests.mjs test-results
summary_rc=$?
if [ $api_rc -ne 0 ] || [ $e2e_rc -ne 0 ] || [ $summary_rc -ne 0 ]; then exit 1; fi
