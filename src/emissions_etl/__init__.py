"""emissions-etl: activity data from spreadsheets and ERP exports to the emissions service.

The packages are floors, and imports run down only (the ``layers`` contract of import-linter in
``pyproject.toml``; packages on one floor do not import each other): ``cli`` and
``prefect_steps``; ``orchestration``; ``templates`` and ``report``; ``loading``; ``profiles``,
``webhooks``, ``inventory`` and ``connection``; ``resources`` and ``organizations``;
``settings``; ``client`` and ``warehouse``; ``domain``; ``sources``; ``errors``. The top of each
package says what it is for and what it may import.
"""


def __getattr__(name: str) -> str:
    """``__version__``: the version pyproject.toml gives, read from the installed package's
    metadata (it is written nowhere else) when first asked for: importing importlib.metadata
    would slow the start of every command."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("emissions-etl")
    except PackageNotFoundError:  # the source tree on sys.path, never installed
        return "0+unknown"
