#!/usr/bin/env bash
# Installs what the tests need beyond npm packages: Debian's Chromium for the browser tests.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  echo "chromium: $(chromium --version 2>/dev/null || echo present)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing and apt-get is not available: install Chromium and set CHROMIUM_PATH." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
echo "chromium: $(chromium --version)"
