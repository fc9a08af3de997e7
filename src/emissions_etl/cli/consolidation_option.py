"""The command-line option for the GHG inventory's consolidation approach (the setting
``Settings.consolidation``), for ``inventory``, ``report`` and ``demo``."""

from __future__ import annotations

from typing import Annotated

import typer

ConsolidationOption = Annotated[
    str | None,
    typer.Option(
        "--consolidation",
        envvar="EMISSIONS_CONSOLIDATION",
        show_envvar=True,
        metavar="APPROACH",
        help="GHG Protocol consolidation approach of the inventory: operational_control "
        "(default), financial_control or equity_share. It decides whether the fuel of rented "
        "vehicles is Scope 1 and 2 or Scope 3 category 8 (upstream leased assets).",
    ),
]


def consolidation_approach(given: str | None) -> str:
    """The approach given (``financial-control`` reads ``financial_control``), else the
    setting's default; ValueError or ConfigurationError naming the choices."""
    from emissions_etl.settings import Settings
    from emissions_etl.warehouse import check_approach

    if given is None:
        return Settings().consolidation
    return check_approach(given.strip().lower().replace("-", "_").replace(" ", "_"))
