#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, from Debian: Chromium for the browser tests,
# ffmpeg (with ffprobe) for the voice notes' m4a copies (Safari before 18.4 plays no Ogg), and
# nginx for the deployment test (deploy/nginx/zapdesk.conf in front of three nodes).
#
# nginx is installed as a program only: the test starts its own nginx on free ports with its own
# configuration. Debian's package would start a system nginx on port 80 at once; a policy-rc.d
# keeps it from starting during the install, and the service is disabled afterwards (where
# systemd runs), so nothing is left listening on the machine.
set -euo pipefail
missing=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then missing+=(chromium fonts-noto-color-emoji); fi
if ! command -v ffmpeg >/dev/null 2>&1 && [ ! -x /usr/bin/ffmpeg ]; then missing+=(ffmpeg); fi
need_nginx=0
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); need_nginx=1; fi
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing: ${missing[*]}, and apt-get is not available: install them (set CHROMIUM_PATH / FFMPEG_PATH / NGINX_PATH if they live elsewhere)." >&2
    exit 1
  fi
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # No service starts while packages install (exit code 101: "action forbidden"), unless the
  # machine already has its own policy, which is left as it is.
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ "$need_nginx" -eq 1 ] && [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    own_policy=1
    trap '$SUDO rm -f "$policy"' EXIT
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  if [ "$own_policy" -eq 1 ]; then
    $SUDO rm -f "$policy"
    trap - EXIT
  fi
  if [ "$need_nginx" -eq 1 ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    $SUDO systemctl disable --now nginx >/dev/null 2>&1 || true
  fi
fi
echo "chromium: $(chromium --version 2>/dev/null || echo present)"
echo "ffmpeg: $(ffmpeg -hide_banner -version 2>/dev/null | head -n 1 || echo present)"
echo "nginx: $( (nginx -v 2>&1 || /usr/sbin/nginx -v 2>&1) | head -n 1)"
