"""The report's plotly charts, each as an HTML fragment that expects plotly.js on the page: its
div and a script handing the figure's data to ``Plotly.newPlot`` as JSON (``blocks.chart``).

plotly.js itself is not in these fragments: the page inlines it once (``html.py``), so the
file opens with no network. Text from the data (file names, facility names, codes) is
entity-escaped before it reaches plotly.js, which would otherwise read ``<b>`` or ``<a>`` in a
label as markup; plotly.js turns the entities back into the literal characters.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from markupsafe import Markup

from emissions_etl.report.colours import (
    SCOPE_COLOURS,
    SCOPE_LABELS,
    resource_colour,
    resource_label,
    resource_order,
)
from emissions_etl.report.numbers import is_missing
from emissions_etl.report.templating import blocks

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
#: Shown on every chart: no plotly logo; the PNG download works offline.
CONFIG: dict[str, object] = {
    "displaylogo": False,
    "responsive": True,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}
NO_FACILITY = "(no facility)"
NOT_FROM_A_FILE = "(not from a file)"
BAR_ROW_HEIGHT = 30
#: The legend of a bar chart: entries in this many equal columns, each row this high (px).
LEGEND_COLUMNS = 2
LEGEND_ROW_HEIGHT = 22
_LEGEND_IN_COLUMNS = {"entrywidth": 1 / LEGEND_COLUMNS, "entrywidthmode": "fraction"}


def plot_text(value: object) -> str:
    """A data value as plotly.js label text: ``<``, ``>`` and ``&`` as entities."""
    return html.escape(str(value), quote=False)


def month_chart(by_month: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """co2e by activity month, one stacked bar segment per resource."""
    segments = [
        (resource_label(resource), resource_colour(resource),
         by_month[by_month["resource"] == resource])
        for resource in resource_order(list(by_month["resource"].unique()))
    ]  # fmt: skip
    return _stacked_by_month(segments, unit, divisor, height=380, div_id="chart-by-month")


def scopes_chart(by_month: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """co2e of each GHG scope by activity month, stacked (the inventory's ``by_month``; records
    outside the scopes or without a date are not drawn)."""
    rows = by_month.dropna(subset=["month", "scope"])
    segments = [
        (label, SCOPE_COLOURS[scope], part)
        for scope, label in SCOPE_LABELS.items()
        if not (part := rows[rows["scope"] == scope]).empty
    ]
    return _stacked_by_month(segments, unit, divisor, height=340, div_id="chart-scopes-by-month")


def _stacked_by_month(
    segments: list[tuple[str, str, pd.DataFrame]],
    unit: str,
    divisor: float,
    *,
    height: int,
    div_id: str,
) -> Markup:
    """One stacked bar a month, a segment per (name, colour, rows of month, co2e_kg,
    records), month labels centred under each bar, every month while they fit."""
    figure = go.Figure()
    for name, colour, rows in segments:
        figure.add_bar(
            x=pd.to_datetime(rows["month"]),
            y=rows["co2e_kg"].astype("float64") / divisor,
            name=name,
            marker_color=colour,
            customdata=rows["records"].astype(int),
            xperiod="M1",
            xperiodalignment="middle",
            hovertemplate=f"%{{x|%B %Y}}<br>%{{y:,.2f}} {unit} co2e"
            "<br>%{customdata:,} records<extra>%{fullData.name}</extra>",
        )
    months = pd.concat([rows["month"] for _, _, rows in segments]).nunique() if segments else 0
    figure.update_layout(barmode="stack", height=height)
    figure.update_xaxes(
        tickformat="%b %Y", ticklabelmode="period", dtick="M1" if months <= 18 else None
    )
    figure.update_yaxes(title_text=f"co2e ({unit})", tickformat=",")
    return _fragment(figure, div_id)


def facility_chart(by_facility: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """co2e by facility (largest first, the rest as one bar), stacked by resource."""
    frame = by_facility.assign(label=[_facility_label(row) for row in _rows(by_facility)])
    return _ranked_bars(
        frame, unit, divisor, "chart-by-facility", hover_label=lambda row: row["label"]
    )


def sources_chart(top_sources: pd.DataFrame, unit: str, divisor: float) -> Markup:
    """The source files whose records weigh most in co2e, stacked by resource."""
    names = _short_names(top_sources["source_file"])
    frame = top_sources.assign(label=[names[_key(f)] for f in top_sources["source_file"]])
    return _ranked_bars(
        frame,
        unit,
        divisor,
        "chart-top-sources",
        hover_label=lambda row: _key(row["source_file"]) or NOT_FROM_A_FILE,
    )


def rejects_chart(rejects_by_code: pd.DataFrame) -> Markup:
    """Rejected cells by code (latest run of each file), stacked by resource."""
    totals = rejects_by_code.groupby("code")["cells"].sum()
    totals = totals.sort_values(ascending=False, kind="stable")
    figure = go.Figure()
    for resource in resource_order(list(rejects_by_code["resource"].unique())):
        rows = rejects_by_code[rejects_by_code["resource"] == resource]
        figure.add_bar(
            y=[plot_text(code) for code in rows["code"]],
            x=rows["cells"],
            orientation="h",
            name=resource_label(resource),
            marker_color=resource_colour(resource),
            customdata=rows["rows"],
            hovertemplate="%{y}<br>%{x:,} cells in %{customdata:,} rows"
            "<extra>%{fullData.name}</extra>",
        )
    order = [plot_text(code) for code in totals.index]
    resources = len(rejects_by_code["resource"].unique())
    figure.update_layout(barmode="stack", height=_bars_height(len(order), legend=resources),
                         legend=_LEGEND_IN_COLUMNS)  # fmt: skip
    figure.update_yaxes(categoryorder="array", categoryarray=order, autorange="reversed")
    # Counts: whole-number ticks only (every one while the longest bar is short).
    figure.update_xaxes(
        title_text="rejected cells", tickformat=",d", dtick=1 if totals.max() <= 10 else None
    )
    return _fragment(figure, "chart-rejects-by-code")


def _ranked_bars(
    frame: pd.DataFrame,
    unit: str,
    divisor: float,
    div_id: str,
    *,
    hover_label: Callable[[pd.Series], str],
) -> Markup:
    """Horizontal bars, one per ``label`` in ``rank`` order, stacked by resource."""
    order = list(dict.fromkeys(frame.sort_values("rank")["label"]))
    figure = go.Figure()
    for resource in resource_order(list(frame["resource"].unique())):
        rows = frame[frame["resource"] == resource]
        figure.add_bar(
            y=rows["label"],
            x=rows["co2e_kg"] / divisor,
            orientation="h",
            name=resource_label(resource),
            marker_color=resource_colour(resource),
            customdata=[
                [plot_text(hover_label(row)), int(row["records"])] for _, row in rows.iterrows()
            ],
            hovertemplate=f"%{{customdata[0]}}<br>%{{x:,.2f}} {unit} co2e"
            "<br>%{customdata[1]:,} records<extra>%{fullData.name}</extra>",
        )
    resources = len(frame["resource"].unique())
    figure.update_layout(barmode="stack", height=_bars_height(len(order), legend=resources),
                         legend=_LEGEND_IN_COLUMNS)  # fmt: skip
    figure.update_yaxes(categoryorder="array", categoryarray=order, autorange="reversed")
    figure.update_xaxes(title_text=f"co2e ({unit})", tickformat=",")
    return _fragment(figure, div_id)


def _fragment(figure: go.Figure, div_id: str) -> Markup:
    figure.update_layout(
        font={"family": FONT, "size": 13, "color": "#1f2933"},
        separators=".,",
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        # Shown even for one resource (its colour is then explained); in the order the code
        # lists resources, not plotly's reversed order for stacks.
        showlegend=True,
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0, "traceorder": "normal"},
        hoverlabel={"font": {"family": FONT}},
        bargap=0.25,
    )
    figure.update_xaxes(automargin=True)
    figure.update_yaxes(automargin=True)
    # The template joins the figure's dict, not the figure: plotly copies and validates its
    # hundreds of settings on every assignment (two thirds of a chart's CPU).
    spec = figure.to_dict()
    spec["layout"]["template"] = _white_template()
    chart = Chart(div_id, int(spec["layout"]["height"]), spec["data"], spec["layout"], CONFIG)
    return blocks.chart(chart)


@dataclass(frozen=True)
class Chart:
    """A figure as the page draws it: its div, its height (px) and what ``Plotly.newPlot`` is
    given (the templates write them with ``|tojson``: plotly's own encoder, ``templating``).
    ``data`` and ``layout`` are the figure's ``to_dict()``, whose values only plotly reads."""

    div_id: str
    height: int
    data: list[dict[str, object]]
    layout: dict[str, object]
    config: dict[str, object]


@functools.cache
def _white_template() -> dict[str, object]:
    """plotly's ``plotly_white`` template, as the dict a figure's layout carries it."""
    template: dict[str, object] = pio.templates["plotly_white"].to_plotly_json()
    return template


def _bars_height(bars: int, *, legend: int = 0) -> int:
    """Room for ``bars`` bars and, above them, a legend of ``legend`` entries in
    ``LEGEND_COLUMNS`` columns: the legend pushes the plot down, never onto the bars, however
    many resources it names (a half-width card at a laptop's 1366 px fits two columns)."""
    rows = -(-legend // LEGEND_COLUMNS)
    return max(220, 110 + BAR_ROW_HEIGHT * bars) + LEGEND_ROW_HEIGHT * rows


def _rows(frame: pd.DataFrame) -> list[pd.Series]:
    return [row for _, row in frame.iterrows()]


def _facility_label(row: pd.Series) -> str:
    if bool(row["is_other"]):
        return f"other ({int(row['others']):,} facilities)"
    return plot_text(row["facility"]) if pd.notna(row["facility"]) else NO_FACILITY


def _key(source_file: object) -> str:
    return "" if is_missing(source_file) else str(source_file)


def _short_names(source_files: pd.Series) -> dict[str, str]:
    """File name only, unless two files share it: then the path as written."""
    paths = list(dict.fromkeys(_key(f) for f in source_files))
    names = [PurePosixPath(p.replace("\\", "/")).name for p in paths]
    return {
        path: NOT_FROM_A_FILE if not path else plot_text(path if names.count(name) > 1 else name)
        for path, name in zip(paths, names, strict=True)
    }


def plotly_bundle() -> str:
    """plotly.js itself (several megabytes), to inline once in the page's head."""
    from plotly.offline import get_plotlyjs

    bundle: str = get_plotlyjs()
    return bundle
