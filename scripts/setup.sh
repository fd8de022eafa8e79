#!/usr/bin/env bash
# Install what layerbench needs: Debian packages (as root; otherwise print the apt command and
# stop), the virtualenv .venv on Debian's own /usr/bin/python3, and the Rust load generator
# built in release mode into .venv/bin. Safe to run again: it only does what is missing.
#
#   scripts/setup.sh [runtime|dev]     dev adds the test and lint tools
set -euo pipefail
cd "$(dirname "$0")/.."

profile=${1:-runtime}
# python3-venv/python3-dev: the virtualenv on Debian's interpreter (the one mod_wsgi, mod_python
# and uWSGI embed); nginx: the static rung and the front server; build-essential, pkg-config,
# libmariadb-dev: native builds (mysqlclient, the seed's MySQLdb driver); Apache with mod_wsgi
# and mod_python, and uWSGI's core with its python3 plugin: the servers `layerbench matrix` runs
# (they embed /usr/bin/python3, which is why .venv is built on it).
apt_packages=(python3 python3-venv python3-dev build-essential pkg-config libmariadb-dev nginx
    apache2 libapache2-mod-wsgi-py3 libapache2-mod-python uwsgi-core uwsgi-plugin-python3)
# The tests run against real backing services (started privately by layerbench, never the
# system's instances), compare the load generator's report with ApacheBench's own, and drive
# the demo site with a real browser (Debian's chromium and its chromedriver).
[[ ${1:-runtime} == dev ]] && apt_packages+=(postgresql mariadb-server memcached redis-server
    apache2-utils chromium chromium-driver)
# The galera service: three MariaDB nodes replicating through Galera 4, joined by rsync's
# state transfer (issue 26).
[[ ${1:-runtime} == dev ]] && apt_packages+=(galera-4 rsync)
# The couchdb service runs pouchdb-server (Node) from node/; Debian's Node where none is installed
# (a Node from elsewhere brings its own npm, which Debian's npm package would conflict with).
command -v npm >/dev/null || apt_packages+=(nodejs npm)
# valgrind: `layerbench cost` counts instructions under callgrind (its callgrind.h builds the shim).
apt_packages+=(valgrind)
# strace: `--measure instructions` counts a served request's system calls by role (strace -f -c).
apt_packages+=(strace)
# iproute2: ip makes a topology's hosts network namespaces (layerbench/hosts/, issue 26).
apt_packages+=(iproute2)
# openssh-server (and its openssh-client): the tests of a topology's SSH hosts run a private
# sshd of their own in a lab namespace (tests/ssh_server.py); the machine's ssh service is
# never started (see below).
[[ ${1:-runtime} == dev ]] && apt_packages+=(openssh-server)
# Rails 6.1 under Apache + Passenger and puma (--app rails; issue 24), from Debian's parts: the
# rails metapackage's webpacker chain does not install beside Debian's Node.
[[ ${1:-runtime} == dev ]] && apt_packages+=(ruby-rails libapache2-mod-passenger passenger
    ruby-sqlite3 ruby-mysql2 ruby-pg ruby-dalli ruby-actionpack-page-caching
    ruby-actionpack-action-caching ruby-rails-observers puma bundler)

say() { printf 'setup: %s\n' "$*" >&2; }

missing=()
for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$package")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
        say "missing Debian packages; install them with:"
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # layerbench starts its own private instances; the packages' system services (nginx and
    # Apache both on port 80) must not start. Debian's way: a policy-rc.d that denies them,
    # ours only for this install.
    policy=/usr/sbin/policy-rc.d
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\n# layerbench setup: no service starts during its install\nexit 101\n' >"$policy"
        chmod 0755 "$policy"
        trap 'rm -f "$policy"' EXIT
    fi
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    if [[ -n $(trap -p EXIT) ]]; then rm -f "$policy"; trap - EXIT; fi
    # The ssh service that openssh-server's install enables: disabled again (the policy above
    # kept it from starting; where systemd runs, stopped too, should another policy have let
    # it start). Only when this run installed the package: a machine's own sshd is left alone.
    if [[ " ${missing[*]} " == *" openssh-server "* ]]; then
        systemctl disable --quiet ssh.service 2>/dev/null || update-rc.d ssh disable >/dev/null
        if [[ -d /run/systemd/system ]]; then systemctl stop ssh.service ssh.socket; fi
    fi
fi

if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c 'import sys; assert sys.base_prefix == "/usr"' 2>/dev/null; then
    say "creating .venv on /usr/bin/python3"
    rm -rf .venv
    /usr/bin/python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
fi
# The wheel's build (setuptools-rust, for the editable install too) and the release build below
# compile load/ with cargo.
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v cargo >/dev/null; then
    say "cargo is not installed: install Rust with rustup (https://rustup.rs), then run this again"
    exit 1
fi
# Every extra (every framework, server and driver): the repository measures all of them.
extras="[all]"
[[ $profile == dev ]] && extras="[all,dev]"
stamp=".venv/.installed-$profile"
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
    say "installing layerbench$extras into .venv"
    .venv/bin/python -m pip install -q -e ".$extras"
    touch "$stamp"
fi
# The callgrind shim of `layerbench cost`, compiled once into the cache (~/.cache/layerbench).
.venv/bin/python -m layerbench.cost.shim_build >/dev/null

# pouchdb-server, the couchdb service's CouchDB-compatible store: node/package.json under its
# lock file, into node/node_modules (nothing global). No install scripts: its LevelDB binding
# ships prebuilt, and sqlite3's would download a binary.
if [[ ! -f node/node_modules/.package-lock.json || node/package-lock.json -nt node/node_modules/.package-lock.json ]]; then
    say "installing pouchdb-server into node/ (npm ci)"
    npm ci --prefix node --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
fi

say "building the load generator (release)"
cargo build --quiet --release --locked --manifest-path load/Cargo.toml
install -m 0755 load/target/release/layerbench-load .venv/bin/layerbench-load
