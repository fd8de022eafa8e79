"""The system packages layerbench runs, by Debian's name, and what Fedora (dnf) and Homebrew
call them where they have them: a missing program is named with every way to install it that
exists, not only apt's. Only what layerbench itself finds and runs is listed."""

# Debian's package -> (Fedora's, Homebrew's); None where that system has no package of it.
OTHER_SYSTEMS: dict[str, tuple[str | None, str | None]] = {
    "nginx": ("nginx", "nginx"),
    "apache2": ("httpd", "httpd"),
    "libapache2-mod-wsgi-py3": ("python3-mod_wsgi", None),
    "libapache2-mod-python": (None, None),
    "libapache2-mod-passenger": ("mod_passenger", None),
    "passenger": ("passenger", "passenger"),
    "uwsgi-core": ("uwsgi", "uwsgi"),
    "uwsgi-plugin-python3": ("uwsgi-plugin-python3", None),
    "puma": ("rubygem-puma", None),
    "ruby": ("ruby", "ruby"),
    "ruby-rails": ("rubygem-rails", None),
    "bundler": ("rubygem-bundler", None),
    # The Rails site's gems as Debian packages them (elsewhere: bundle install).
    "ruby-sqlite3": ("rubygem-sqlite3", None),
    "ruby-mysql2": ("rubygem-mysql2", None),
    "ruby-pg": ("rubygem-pg", None),
    "ruby-dalli": ("rubygem-dalli", None),
    "ruby-actionpack-page-caching": (None, None),
    "ruby-actionpack-action-caching": (None, None),
    "ruby-rails-observers": (None, None),
    # valgrind runs on Linux only: Homebrew's macOS has none.
    "valgrind": ("valgrind", None),
    "gcc": ("gcc", "gcc"),
    # strace runs on Linux only, as valgrind.
    "strace": ("strace", None),
    "util-linux": ("util-linux", None),
    "openssl": ("openssl", "openssl@3"),
    "memcached": ("memcached", "memcached"),
    "redis-server": ("redis", "redis"),
    "mariadb-server": ("mariadb-server", "mariadb"),
    "postgresql": ("postgresql-server", "postgresql@16"),
    "galera-4": ("galera", None),
    "rsync": ("rsync", "rsync"),
    "nodejs": ("nodejs", "node"),
    "npm": ("npm", "node"),
    "python3": ("python3", "python@3.11"),
    "openssh-server": ("openssh-server", None),
    "iproute2": ("iproute", None),
}


def install_commands(apt_packages: str) -> str:
    """How to install ``apt_packages`` (Debian's names, space-separated): apt's command, then
    dnf's and brew's where every package has a name there."""
    debian = apt_packages.split()
    command = f"apt-get install {apt_packages}"
    others = []
    for index, tool in ((0, "dnf install"), (1, "brew install")):
        names = [OTHER_SYSTEMS.get(package, (None, None))[index] for package in debian]
        if names and all(names):
            others.append(f"{tool} {' '.join(sorted(set(n for n in names if n)))}")
    return f"{command} ({'; '.join(others)})" if others else command
