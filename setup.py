"""The wheel's tag. Its Python code is pure and its one compiled file, ``layerbench-load``, is a
program rather than an extension module: the wheel fits every Python 3 that ``requires-python``
admits, on its platform (``py3-none-<platform>``; ``make wheel`` turns the platform into the
manylinux tag the program's symbols allow)."""

from setuptools import setup
from setuptools.command.bdist_wheel import bdist_wheel


class ProgramWheel(bdist_wheel):
    def get_tag(self) -> tuple[str, str, str]:
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(cmdclass={"bdist_wheel": ProgramWheel})
