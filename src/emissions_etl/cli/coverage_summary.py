"""What ``coverage`` prints: the matrix (entities by months, one mark a cell), then every gap
with its due date and estimate, then one line of counts. Every value from the warehouse is
printed as text, never as markup."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd
    from rich.console import Console

    from emissions_etl.coverage import Coverage
    from emissions_etl.storage import AnyPath

#: Gaps listed one a line; the rest are counted (``--out`` writes every one).
MAX_GAPS_SHOWN = 100


def print_coverage(coverage: Coverage, *, written: AnyPath | None = None) -> None:
    """The matrix, the gaps and the counts, on standard output."""
    from emissions_etl.cli.terminal import out

    if coverage.rows.empty:
        out.print("nothing is expected yet: no resource of this warehouse has a record with a "
                  "date in that period", highlight=False)  # fmt: skip
    else:
        print_matrix(coverage, out)
        print_gaps(coverage.gaps, out)
    for resource in coverage.uncovered:
        out.print(f"{resource}: not in the coverage yet (the next load of it declares what its "
                  "records cover)", highlight=False, markup=False)  # fmt: skip
    if written is not None:
        out.print(f"{written}: every expected period", highlight=False, markup=False)
    out.print(f"coverage of {coverage.in_words()}", highlight=False, markup=False)


def print_by_resource(coverage: Coverage, console: Console, *, gaps_shown: int = 8) -> None:
    """A line per resource (periods expected, received, missing, overdue, estimated), the
    first gaps by name, and the counts: the coverage in a summary's few lines."""
    from rich.table import Table
    from rich.text import Text

    title = f"Coverage of {coverage.in_words().split(':')[0]}"
    table = Table("resource", "entities", "expected", "received", "missing", "overdue",
                  "estimated (t)", title=title)  # fmt: skip
    for resource, rows in coverage.rows.groupby("resource", sort=True):
        missing = rows["status"] == "missing"
        table.add_row(
            Text(str(resource)), f"{rows['entity'].nunique():,}", f"{len(rows):,}",
            f"{int((~missing).sum()):,}", f"{int(missing.sum()):,}",
            f"{int(rows['overdue'].sum()):,}", f"{rows['estimate_kg'].sum() / 1000:,.1f}",
        )  # fmt: skip
    console.print(table)
    entities = list(coverage.gaps.groupby(["resource", "entity"], sort=False))
    for (of, entity), gaps in entities[:gaps_shown]:
        console.print(Text(_entity_gaps(str(of), str(entity), gaps)), soft_wrap=True)
    if len(entities) > gaps_shown:
        console.print(f"... and {len(entities) - gaps_shown:,} more with gaps", highlight=False,
                      markup=False)  # fmt: skip
    console.print(f"coverage of {coverage.in_words()}", highlight=False, markup=False)


def _entity_gaps(resource: str, entity: str, gaps: pd.DataFrame) -> str:
    """``vehicle_consumptions 1081FYP: 2026-03, 2026-04 missing (2 overdue); estimated 0.5 t``."""
    from emissions_etl.coverage import period_label
    from emissions_etl.coverage.matrix import ORGANIZATION_ROW

    periods = ", ".join(period_label(m, str(c)) for m, c in zip(gaps["month"], gaps["cadence"],
                                                                 strict=True))  # fmt: skip
    estimated = gaps["estimate_kg"].sum()
    estimate = f"estimated {estimated / 1000:,.2f} t" if estimated else "no estimate"
    return (
        f"{resource} {entity or ORGANIZATION_ROW}: {periods} missing "
        f"({int(gaps['overdue'].sum()):,} overdue); {estimate}"
    )


def print_matrix(coverage: Coverage, console: Console) -> None:
    """One line per resource and entity, one column per month: text, written at once."""
    from rich.text import Text

    from emissions_etl.coverage import LEGEND, matrix_text

    lines = [f"Coverage ({LEGEND})", *matrix_text(coverage.rows)]
    console.print(Text("\n".join(lines)), soft_wrap=True, highlight=False)


def print_gaps(gaps: pd.DataFrame, console: Console) -> None:
    """Each missing period: when it was due, whether it is late, its estimate."""
    from rich.text import Text

    from emissions_etl.coverage import period_label
    from emissions_etl.coverage.matrix import ORGANIZATION_ROW

    for gap in gaps.head(MAX_GAPS_SHOWN).to_dict("records"):
        late = "overdue" if gap["overdue"] else "not yet due"
        estimate = (
            "no estimate (no data of it that year)" if gap["estimate_kg"] != gap["estimate_kg"]
            or gap["estimate_kg"] is None
            else f"estimate {gap['estimate_kg']:,.1f} kg ({gap['estimate_method']})"
        )  # fmt: skip
        console.print(Text(
            f"{gap['resource']} {gap['entity'] or ORGANIZATION_ROW} "
            f"{period_label(gap['month'], str(gap['cadence']))}: missing, due "
            f"{gap['due_date']:%Y-%m-%d}, {late}; {estimate}"
        ), soft_wrap=True)  # fmt: skip
    if len(gaps) > MAX_GAPS_SHOWN:
        console.print(f"... and {len(gaps) - MAX_GAPS_SHOWN:,} more gaps (--out writes them all)",
                      highlight=False, markup=False)  # fmt: skip
