"""The pull step of the deployments: the folder a flow run starts in, decided when it starts.

The deployments' entrypoints are module paths of the installed package (``emissions_etl_flows``),
so a worker needs no checkout to find the flows: what this step decides is where a run's
relative paths (``warehouse.duckdb``, an inbox) are taken from. Prefect's usual
``set_working_directory: {directory: "{{ $PWD }}"}`` is templated by ``prefect deploy``, which
would bake the deploying shell's folder in; this step decides on the worker's machine, at each
run:

1. ``EMISSIONS_PROJECT_DIR`` in the worker's environment (flow runs inherit it): a checkout, or
   any folder on a worker that has the package installed;
2. else the run's working directory when it holds the flows (the process work pool's job
   variable ``working_dir`` naming a checkout);
3. else the checkout ``emissions_etl`` is installed from (``uv sync`` installs it editable);
4. else the run's working directory as the work pool gives it, refused when it is a temporary
   folder (Prefect's, when the pool has no ``working_dir``) and the warehouse is a relative
   path: the file would go when the run ends.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import tempfile
from pathlib import Path

import emissions_etl
from emissions_etl.errors import ConfigurationError
from emissions_etl.orchestration.config import resolve_settings
from emissions_etl.settings import Settings
from emissions_etl.warehouse import WarehouseTarget

#: The installed package of the flows, which the deployments' entrypoints name.
FLOWS_PACKAGE = "emissions_etl_flows"

#: A checkout holds this file (the declaration of the deployments, beside the flows).
MARKER = Path("flows") / "prefect.yaml"


def set_project_directory() -> dict[str, str]:
    """Change to the folder this run starts in, say so in the run's logs, and return it as the
    step's ``directory`` output."""
    directory = project_directory()
    if directory is None:
        directory = Path.cwd().resolve()
        refuse_a_temporary_warehouse(directory)
    os.chdir(directory)
    _log_to_the_run(f"{installed_from()}; the run starts in {directory}")
    return {"directory": str(directory)}


def project_directory(settings: Settings | None = None) -> Path | None:
    """The folder runs start in when one is set or found (see the module's order), else None:
    an installed package with no checkout, whose runs start where the work pool puts them."""
    configured = (settings or Settings()).project_dir
    if configured:
        path = configured.expanduser().resolve()
        if not path.is_dir():
            raise ConfigurationError(
                f"EMISSIONS_PROJECT_DIR={path} is not a folder: point it at the folder runs "
                "start in (a checkout, or any folder of the worker)"
            )
        return path
    for candidate in (Path.cwd(), _installed_checkout()):
        if (candidate / MARKER).is_file():
            return candidate.resolve()
    return None


def installed_from() -> str:
    """``emissions-etl 0.1.0 from /venv/lib/python3.11/site-packages (flows: ...)``: the
    version and the folders the pipeline and the flows are imported from, as this process
    finds them (the workers of a pool may have different installs)."""
    pipeline = Path(emissions_etl.__file__).resolve().parent.parent
    flows = flows_folder()
    return f"emissions-etl {emissions_etl.__version__} from {pipeline} (flows: {flows})"


def flows_folder() -> Path | None:
    """The folder of the installed flows (``flows/`` in a checkout installed editable), found
    without importing them; None when they are not installed."""
    spec = importlib.util.find_spec(FLOWS_PACKAGE)
    return Path(spec.origin).resolve().parent if spec is not None and spec.origin else None


def _installed_checkout() -> Path:
    """``src/emissions_etl/__init__.py`` -> the checkout, when installed from one."""
    return Path(emissions_etl.__file__).resolve().parents[2]


def refuse_a_temporary_warehouse(directory: Path) -> None:
    """ConfigurationError when ``directory`` is a temporary folder and the run's warehouse a
    relative path: written there, the warehouse would be deleted with the folder."""
    if not directory.is_relative_to(Path(tempfile.gettempdir()).resolve()):
        return
    settings = resolve_settings(require_api=False)
    target = WarehouseTarget.of(settings.warehouse, settings.warehouse_data)
    relative = [
        str(path)
        for path in (None if target.is_postgres else target.path, target.data_path)
        if path is not None and "://" not in str(path) and not Path(path).expanduser().is_absolute()
    ]
    if relative:
        paths = "is a relative path" if len(relative) == 1 else "are relative paths"
        raise ConfigurationError(
            f"the warehouse's {' and '.join(relative)} {paths} and this run starts in a "
            f"temporary folder ({directory}), deleted when it ends: set EMISSIONS_PROJECT_DIR "
            "on the worker to the folder to keep it in, or give prefect-setup --warehouse an "
            "absolute path"
        )


def _log_to_the_run(message: str) -> None:
    """One line in the flow run's logs (the UI's), from this step, before the run has started:
    Prefect's API handler takes a record naming its run. Its console format names the run too
    (``flow_run_name``): the step knows only the run's id, which it gives as the name rather
    than ask the server. Without a run (the step run by hand) it is a line of Prefect's console."""
    from prefect.runtime import flow_run

    run_id = flow_run.get_id()
    if run_id is None:
        from prefect.logging import get_logger

        get_logger(__name__).info(message)
        return
    extra = {"flow_run_id": run_id, "flow_run_name": run_id}
    logging.getLogger("prefect.flow_runs").info(message, extra=extra)
