"""The pull step of the deployments: find the project folder when a flow run starts.

Prefect's usual ``set_working_directory: {directory: "{{ $PWD }}"}`` is templated by
``prefect deploy``, so the deploying shell's folder is baked into the deployment. This step
decides on the worker's machine, at each run, so a worker started anywhere runs the flows of
its own checkout:

1. ``EMISSIONS_PROJECT_DIR`` in the worker's environment (flow runs inherit it);
2. else the run's working directory when it holds the flows (the process work pool's job
   variable ``working_dir``);
3. else the checkout ``emissions_etl`` is installed from (``uv sync`` installs it editable).
"""

from __future__ import annotations

import os
from pathlib import Path

from emissions_etl.errors import ConfigurationError
from emissions_etl.settings import Settings

#: A folder is the project when this file is in it (the deployments' entrypoints are relative).
MARKER = Path("flows") / "prefect.yaml"


def set_project_directory() -> dict[str, str]:
    """Change to the project folder and return it as the step's ``directory`` output."""
    directory = project_directory()
    os.chdir(directory)
    return {"directory": str(directory)}


def project_directory(settings: Settings | None = None) -> Path:
    """The folder the deployments' entrypoints are relative to (see the module's order)."""
    configured = (settings or Settings()).project_dir
    if configured:
        path = configured.expanduser().resolve()
        if not (path / MARKER).is_file():
            raise ConfigurationError(
                f"EMISSIONS_PROJECT_DIR={path} holds no {MARKER}: point it at the project folder"
            )
        return path
    for candidate in (Path.cwd(), _installed_checkout()):
        if candidate is not None and (candidate / MARKER).is_file():
            return candidate.resolve()
    raise ConfigurationError(
        f"no project folder found for this run: set EMISSIONS_PROJECT_DIR on the worker to the "
        f"folder holding {MARKER}"
    )


def _installed_checkout() -> Path | None:
    """``src/emissions_etl/__init__.py`` -> the checkout, when installed from one."""
    import emissions_etl

    return Path(emissions_etl.__file__).resolve().parents[2]
