"""emissions-etl installed from its wheel into a venv of its own, as ``pip install emissions-etl``
puts it on a worker: no checkout on its path, only ``site-packages``.

The wheel is built as a release is (``uv build``: the sdist, then the wheel from the unpacked
sdist, so nothing is read from the checkout that the sdist does not carry). The venv takes the
package from the wheel and its dependencies from the project's venv, through a ``.pth`` line:
installing them again would take minutes, and only our own package is under test. That line
names a folder, not a site folder, so the editable install of the checkout that the project's
venv holds (an import hook its own ``.pth`` file starts) is not seen there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
UV = str(Path(sys.executable).with_name("uv"))
BUILD_TIMEOUT = 300.0


@dataclass(frozen=True)
class InstalledPackage:
    """A venv holding emissions-etl from ``wheel``."""

    wheel: Path
    venv: Path

    @property
    def version(self) -> str:
        """The version the wheel was built with (its name says it)."""
        return self.wheel.name.split("-")[1]

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def site_packages(self) -> Path:
        [folder] = (self.venv / "lib").glob("python3.*/site-packages")
        return folder

    def script(self, name: str) -> str:
        """A console script the wheel installed (``emissions-etl``, ``emissions-sandbox``)."""
        return str(self.venv / "bin" / name)

    def env(self, base: dict[str, str]) -> dict[str, str]:
        """``base`` for a process of this venv: its scripts first on PATH, no PYTHONPATH."""
        env = {name: value for name, value in base.items() if name != "PYTHONPATH"}
        return {**env, "PATH": f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}


def build_wheel(out: Path) -> Path:
    """The wheel of this checkout, built through its sdist into ``out``."""
    subprocess.run(
        [UV, "build", "--quiet", "--out-dir", str(out), str(PROJECT)],
        check=True, capture_output=True, timeout=BUILD_TIMEOUT,
    )  # fmt: skip
    [wheel] = out.glob("emissions_etl-*.whl")
    return wheel


def install(wheel: Path, venv: Path) -> InstalledPackage:
    """A new venv at ``venv`` with ``wheel`` installed and the project venv's dependencies."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    installed = InstalledPackage(wheel, venv)
    dependencies = sysconfig.get_paths()["purelib"]  # this (the project's) venv's
    (installed.site_packages / "project-dependencies.pth").write_text(dependencies + "\n")
    subprocess.run(
        [UV, "pip", "install", "--quiet", "--no-deps", "--python", str(installed.python),
         str(wheel)],
        check=True, capture_output=True, timeout=BUILD_TIMEOUT,
    )  # fmt: skip
    return installed
