#!/usr/bin/env bash
# Installs and starts what `npm test` needs on a Debian machine (run as root): librdkafka-dev, a C toolchain
# and pkg-config (the Kafka mock cluster), Chromium (browser tests), Redis (shared rate limits), promtool
# from Debian's prometheus package (the alert rules' unit tests; the server it brings is stopped), iproute2 and
# nftables (the network fault tests' namespaces and partitions), PostgreSQL
# (every persistence suite runs on it as well as on PGlite), and Node 22 into .ci/node when the machine's
# Node is older. `npm test` names this script when something is missing; .ci/run calls it first.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

need_apt=()
dpkg -s librdkafka-dev >/dev/null 2>&1 || need_apt+=(librdkafka-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
command -v cc >/dev/null 2>&1 || need_apt+=(gcc libc6-dev)
command -v make >/dev/null 2>&1 || need_apt+=(make)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
command -v promtool >/dev/null 2>&1 || need_apt+=(prometheus)
# The network fault tests (issue 50): namespaces, veth pairs and bridges (ip), partitions and loss (nft).
command -v ip >/dev/null 2>&1 || need_apt+=(iproute2)
command -v nft >/dev/null 2>&1 || need_apt+=(nftables)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
  # Only promtool is wanted: where systemd started the package's Prometheus server, stop and disable it.
  if [[ " ${need_apt[*]} " == *" prometheus "* ]] && command -v systemctl >/dev/null 2>&1; then
    systemctl disable --now prometheus >/dev/null 2>&1 || true
  fi
fi

# PostgreSQL: installed from Debian when the machine has no server, its cluster made when there is none,
# and 127.0.0.1 trusted for the tests' postgres user (TEST_DATABASE_URL points elsewhere otherwise).
if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    echo "setup: installing PostgreSQL"
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends postgresql
  fi
  version="$(ls /etc/postgresql | sort -V | tail -n1)"
  if [ ! -d "/etc/postgresql/$version/main" ]; then
    pg_createcluster "$version" main >/dev/null
  fi
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -qE '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
    # Local test server only: first match wins, so trust goes on top.
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  echo "setup: starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432
fi

# Redis: started as on a developer's machine (no persistence), unless one already answers.
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "setup: starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
  redis-cli -h 127.0.0.1 -p 6379 ping
fi

# Node 22 LTS (package.json's engines: >= 22.18), from the `node` package of the npm registry, into
# .ci/node when the machine's Node is older. Its one install script (which links the binary) is approved
# in .ci/node's own package.json, so every npm version installs it the same way.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 18) ? 0 : 1)'; then
  if [ ! -x .ci/node/node_modules/.bin/node ]; then
    echo "setup: installing Node 22 into .ci/node (machine has $(node --version))"
    mkdir -p .ci/node
    printf '{ "private": true, "allowScripts": { "node": true } }\n' > .ci/node/package.json
    npm install --prefix .ci/node --no-save --no-audit --no-fund --loglevel=error node@22
  fi
  echo "setup: Node 22 is in .ci/node; put it first on PATH: export PATH=\"$PWD/.ci/node/node_modules/.bin:\$PATH\""
fi
