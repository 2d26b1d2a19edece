#!/usr/bin/env bash
# Installs node_modules when missing or when package-lock.json changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
STAMP=node_modules/.dra-posture-lock.sha256
WANT=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  # npm 11 here records no lock entries for other platforms' optional packages (tailwind oxide,
  # next swc) and then refuses `npm ci` on that same lock; `npm install` honours the lock anyway.
  if ! npm ci --no-audit --no-fund >&2; then
    echo "npm ci refused the lock file; installing with npm install instead" >&2
    npm install --no-audit --no-fund >&2
  fi
  echo "$WANT" > "$STAMP"
fi
