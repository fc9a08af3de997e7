"""The command line ``emissions-etl`` (``main``), its terminal output (``terminal``), the demo
and the options several commands share.

Floor: the top, with ``prefect_steps``. May import every floor below it (orchestration, templates,
report, loading and down to errors); nothing of the package imports it (the ``emissions-etl`` entry
point does).
"""

from emissions_etl.cli.main import app

__all__ = ["app"]
