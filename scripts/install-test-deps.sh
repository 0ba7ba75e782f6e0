#!/usr/bin/env bash
# Installs what the tests need beyond npm packages, from Debian: Chromium for the browser tests,
# and ffmpeg (with ffprobe) for the voice notes' m4a copies (Safari before 18.4 plays no Ogg).
set -euo pipefail
missing=()
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then missing+=(chromium fonts-noto-color-emoji); fi
if ! command -v ffmpeg >/dev/null 2>&1 && [ ! -x /usr/bin/ffmpeg ]; then missing+=(ffmpeg); fi
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing: ${missing[*]}, and apt-get is not available: install them (set CHROMIUM_PATH / FFMPEG_PATH if they live elsewhere)." >&2
    exit 1
  fi
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "chromium: $(chromium --version 2>/dev/null || echo present)"
echo "ffmpeg: $(ffmpeg -hide_banner -version 2>/dev/null | head -n 1 || echo present)"
