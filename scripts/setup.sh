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
# libmariadb-dev: native builds (mysqlclient, the seed's MySQLdb driver).
apt_packages=(python3 python3-venv python3-dev build-essential pkg-config libmariadb-dev nginx)
# The tests run against real backing services (started privately by layerbench, never the
# system's instances), compare the load generator's report with ApacheBench's own, and drive
# the demo site with a real browser (Debian's chromium and its chromedriver).
[[ ${1:-runtime} == dev ]] && apt_packages+=(postgresql mariadb-server memcached redis-server
    apache2-utils chromium chromium-driver)

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
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c 'import sys; assert sys.base_prefix == "/usr"' 2>/dev/null; then
    say "creating .venv on /usr/bin/python3"
    rm -rf .venv
    /usr/bin/python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
fi
extras=""
[[ $profile == dev ]] && extras="[dev]"
stamp=".venv/.installed-$profile"
if [[ ! -f $stamp || pyproject.toml -nt $stamp ]]; then
    say "installing layerbench$extras into .venv"
    .venv/bin/python -m pip install -q -e ".$extras"
    touch "$stamp"
fi

export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v cargo >/dev/null; then
    say "cargo is not installed: install Rust with rustup (https://rustup.rs), then run this again"
    exit 1
fi
say "building the load generator (release)"
cargo build --quiet --release --locked --manifest-path load/Cargo.toml
install -m 0755 load/target/release/layerbench-load .venv/bin/layerbench-load
