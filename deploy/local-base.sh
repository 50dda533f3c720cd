#!/usr/bin/env bash
# Local base images built from Debian's packages, for machines that reach a Debian mirror but
# no public image registry (deploy/Dockerfile's default base, python:3.11-slim, and the compose
# file's redis and prometheus images cannot be pulled there):
#   localhost/fengsheng-base:bookworm        Debian 12 minbase + python3 (3.11) + venv: the
#                                            Dockerfile's BASE_IMAGE (--build-arg BASE_IMAGE=...)
#   localhost/fengsheng-redis:bookworm       Debian's redis-server (7.0), uid 999 like the official image
#   localhost/fengsheng-prometheus:bookworm  Debian's prometheus (2.42), /prometheus, user nobody
# The base is `debootstrap --variant=minbase bookworm` from the mirror apt is configured with,
# imported with `podman import`; the other two are `podman build`s on top of it (apt inside).
# An image that already exists is kept (the cache between runs); --rebuild makes them again.
# The host's extra CA certificates (/usr/local/share/ca-certificates, e.g. a TLS-inspecting
# proxy's) go into the base, and pip uses the system CA store, so pip in the build reaches
# PyPI as the host does.
#
#   deploy/local-base.sh [--rebuild]     (root: debootstrap; podman, debootstrap installed)
# Environment: FENGSHENG_DEBIAN_MIRROR (default: apt's), CONTAINERS_CONF (podman's settings).
set -euo pipefail
cd "$(dirname "$0")"

BASE=localhost/fengsheng-base:bookworm
REDIS=localhost/fengsheng-redis:bookworm
PROMETHEUS=localhost/fengsheng-prometheus:bookworm
rebuild=0
[ "${1:-}" = "--rebuild" ] && rebuild=1

have() { [ "$rebuild" = 0 ] && podman image exists "$1"; }

mirror="${FENGSHENG_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  # the first Debian archive (not debian-security) in apt's sources, one-line or deb822 style
  mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
            | grep -E '^(deb |URIs:)' | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)"
  mirror="${mirror:-http://deb.debian.org/debian}"
fi

if have "$BASE"; then
  echo "local-base: $BASE exists (--rebuild to make it again)"
else
  start=$SECONDS
  rootfs="$(mktemp -d /var/tmp/fengsheng-rootfs.XXXXXX)"
  trap 'rm -rf "$rootfs"' EXIT
  echo "local-base: debootstrap bookworm from $mirror (about a minute)"
  if ! debootstrap --variant=minbase --include=python3,python3-venv,python-is-python3,ca-certificates \
      bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1; then
    tail -n 20 "$rootfs.log" >&2
    echo "local-base: debootstrap failed (whole log: $rootfs.log)" >&2
    exit 1
  fi
  rm -f "$rootfs.log"
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
  fi
  printf '[global]\ncert = /etc/ssl/certs/ca-certificates.crt\n' >"$rootfs/etc/pip.conf"
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
  tar -C "$rootfs" -c . | podman import --quiet \
    --change 'ENV LANG=C.UTF-8' --change 'CMD ["python3"]' \
    --message "debootstrap --variant=minbase bookworm $mirror + python3" - "$BASE" >/dev/null
  rm -rf "$rootfs"
  trap - EXIT
  echo "local-base: $BASE built in $((SECONDS - start)) s"
fi

for pair in "$REDIS:local/redis.Containerfile" "$PROMETHEUS:local/prometheus.Containerfile"; do
  image="${pair%:*}" file="${pair##*:}"
  if have "$image"; then
    echo "local-base: $image exists"
    continue
  fi
  start=$SECONDS
  if ! podman build -q -f "$file" --build-arg BASE_IMAGE="$BASE" -t "$image" local >/dev/null 2>"/var/tmp/fengsheng-build.log"; then
    tail -n 20 /var/tmp/fengsheng-build.log >&2
    echo "local-base: building $image failed" >&2
    exit 1
  fi
  echo "local-base: $image built in $((SECONDS - start)) s"
done
