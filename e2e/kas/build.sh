#!/usr/bin/env bash
# Build (once) the test-only kube-apiserver/kube-controller-manager binary of
# e2e/kas and print its path as the last line of stdout. Logs go to stderr.
#
# Cache: ${DRA_POSTURE_CACHE:-$HOME/.cache/dra-posture}/kas/<key>/kas, where
# <key> = k8s version + sha256 of go.mod, go.sum, main.go and the Go version.
# A cold build takes ~10-20 min on 2 cores; a cached one returns at once.
set -euo pipefail

export GOTOOLCHAIN=local CGO_ENABLED=0
export PATH="/usr/local/go/bin:$PATH"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

log() { echo "kas/build.sh: $*" >&2; }

K8S=$(sed -n 's|^[[:space:]]*k8s\.io/kubernetes[[:space:]]\{1,\}\(v[^[:space:]]*\).*|\1|p' go.mod | head -n1)
[ -n "$K8S" ] || { log "k8s.io/kubernetes not found in go.mod"; exit 1; }
gover=$(go env GOVERSION)
hash=$( { cat go.mod go.sum main.go; echo "$gover"; } | sha256sum | cut -c1-16)
key="$K8S-$hash"
cache="${DRA_POSTURE_CACHE:-$HOME/.cache/dra-posture}/kas/$key"
bin="$cache/kas"

if [ -x "$bin" ]; then
  log "cached: $bin"
  echo "$bin"
  exit 0
fi

mkdir -p "$cache"
# Serialise concurrent builds of the same key (parallel test runners).
exec 9>"$cache/.lock"
if command -v flock >/dev/null 2>&1; then
  log "waiting for build lock" ; flock 9
fi
if [ -x "$bin" ]; then
  log "cached (built concurrently): $bin"
  echo "$bin"
  exit 0
fi

# Version metadata for /version, taken from the module proxy's .info record.
info=$(go mod download -json "k8s.io/kubernetes@$K8S" 2>/dev/null || true)
commit=$(printf '%s' "$info" | sed -n 's/^[[:space:]]*"Hash": "\([0-9a-f]\{40\}\)".*/\1/p' | head -n1)
infofile=$(printf '%s' "$info" | sed -n 's/^[[:space:]]*"Info": "\(.*\)",*$/\1/p')
date=""
[ -n "$infofile" ] && [ -f "$infofile" ] &&
  date=$(sed -n 's/.*"Time":"\([0-9T:-]*\)[^"]*Z".*/\1Z/p' "$infofile")
[ -n "$date" ] || date="1970-01-01T00:00:00Z"
major=${K8S#v}; major=${major%%.*}
minor=${K8S#v*.}; minor=${minor%%.*}

ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$K8S -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitCommit=$commit -X $pkg.gitTreeState=clean -X $pkg.buildDate=$date"
done

tmp="$cache/kas.tmp.$$"
trap 'rm -f "$tmp"' EXIT
log "building kas $K8S with $gover (cold builds take 10-20 min) -> $bin"
start=$(date +%s)
go build -p "${KAS_BUILD_PARALLEL:-2}" -trimpath -ldflags "$ldflags" -o "$tmp" . >&2
chmod 0755 "$tmp"
mv -f "$tmp" "$bin"
log "built in $(( $(date +%s) - start ))s: $(du -h "$bin" | cut -f1)"
echo "$bin"
