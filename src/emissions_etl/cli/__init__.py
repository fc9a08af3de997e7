"""The command line ``emissions-etl`` (``main``), its terminal output (``terminal``), the demo
and the options several commands share."""

from emissions_etl.cli.main import app

__all__ = ["app"]
