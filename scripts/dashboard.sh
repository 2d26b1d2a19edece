#!/usr/bin/env bash
# Opens the dashboard from a fresh clone: installs dependencies when needed, builds once, serves on
# 127.0.0.1:3000. Extra arguments go to `dra-posture serve` (e.g. --snapshot PATH, --port 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
exec node bin/dra-posture.mjs serve "$@"
