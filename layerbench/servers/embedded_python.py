"""The environment of a server that embeds Debian's Python: Apache's mod_python and mod_wsgi,
uWSGI's python3 plugin.

An embedded interpreter takes the first ``python3`` on PATH for its own executable, as
``python3`` run from a shell would, and Python's ``site`` then treats a ``pyvenv.cfg`` beside it
as its virtualenv, whatever ``PYTHONHOME`` says. With a virtualenv's ``bin`` first on PATH (an
activated ``.venv``), it left Debian's ``dist-packages`` off its path, where mod_python's own
package lives ("No module named 'mod_python'"). So these servers get PATH with the directory of
Debian's ``python3`` first, the interpreter they are built against, and none of our
``PYTHONHOME``, ``PYTHONPATH`` or ``VIRTUAL_ENV``. The application still runs with ``.venv``'s
packages: :mod:`~layerbench.servers.app_script` puts them first on its path.
"""

import os

# Where Debian's python3 is: libapache2-mod-python, libapache2-mod-wsgi-py3 and
# uwsgi-plugin-python3 embed it.
SYSTEM_PYTHON_DIR = "/usr/bin"
CALLERS_PYTHON = ("PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV")


def embedded_python_environment(**more: str) -> dict[str, str]:
    """Our environment without our Python's variables, Debian's python3 first on PATH, and
    ``more``."""
    environment = {key: value for key, value in os.environ.items() if key not in CALLERS_PYTHON}
    path = [SYSTEM_PYTHON_DIR, *environment.get("PATH", "").split(os.pathsep)]
    environment["PATH"] = os.pathsep.join(dict.fromkeys(entry for entry in path if entry))
    return {**environment, **more}
