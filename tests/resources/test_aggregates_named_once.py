"""The resources whose co2e sums other records' are named from their specs, never by hand: a
text that lists them (a legend, a caption, a report's note) says what the registry says."""

from __future__ import annotations

import re
from pathlib import Path

import emissions_etl
from emissions_etl.loading.figures import LEGEND
from emissions_etl.resources import RESOURCES, aggregate_resources, aggregates_in_words

PACKAGE = Path(emissions_etl.__file__).parent


def test_the_aggregates_are_the_resources_whose_readback_says_so() -> None:
    assert aggregate_resources() == tuple(
        name for name, spec in RESOURCES.items() if spec.readback.is_aggregate
    )
    assert set(aggregate_resources()) == {"facilities", "logistic_hubs", "vehicles", "employees"}
    assert aggregates_in_words() == "facilities, logistic hubs, vehicles and employees"


def test_the_legend_names_them_through_the_specs() -> None:
    assert aggregates_in_words() in LEGEND


def test_no_module_lists_them_by_hand() -> None:
    """Their names one after the other (across the lines of a string or a comment, "hub" or
    "logistic hub"), outside the resource modules, is the list written again."""
    names = [rf"(?:\w+ )?{name.split('_')[-1].rstrip('s')}s?" for name in aggregate_resources()]
    listed = re.compile(r",? (?:and |or )?".join(names), re.IGNORECASE)
    hand_written = [
        f"{path.relative_to(PACKAGE)}: {found.group(0)}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.parent.name != "resources"
        for found in listed.finditer(_flowing(path.read_text("utf-8")))
    ]
    assert hand_written == []


def _flowing(code: str) -> str:
    """The text with string and comment line breaks taken out: ``"a, b "\n    "c"`` reads
    ``a, b c``."""
    joined = re.sub(r"""["']?\s*\n\s*(?:#:?|f?["'])?\s*""", " ", code)
    return re.sub(r"\s+", " ", joined)
