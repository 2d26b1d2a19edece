#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the Playwright tests (never `npx playwright install`:
# browser downloads are not reachable here). Installs with apt-get only when /usr/bin/chromium is missing.
set -euo pipefail
CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
echo "chromium not found at $CHROMIUM; installing it with apt-get" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends chromium >&2
[ -x "$CHROMIUM" ] || { echo "chromium is still missing at $CHROMIUM" >&2; exit 1; }
