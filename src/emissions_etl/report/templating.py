"""The report's templates (``templates/``, package data): Jinja2 with autoescape, so every value
from the warehouse is HTML-escaped unless a template made it; the charts' data goes through
``|tojson``, whose JSON is safe inside a script element (``<``, ``>``, ``&`` and ``'`` as
``\\u`` escapes).

``blocks`` and ``hints`` give the macros of ``blocks.html.j2`` (cards, tables, cells, charts)
and ``hints.html.j2`` (the prose that holds markup) to the modules that lay out the sections;
each returns ``Markup``: HTML that is not escaped again, where a plain ``str`` always is.
"""

from __future__ import annotations

import functools
from typing import Protocol

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup


class Macro(Protocol):
    """A template's macro: it takes any values (the template escapes or formats each)."""

    def __call__(self, *args: object, **kwargs: object) -> Markup: ...


@functools.cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("emissions_etl.report", "templates"),
        autoescape=select_autoescape(default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    # Figures hold numpy arrays and dates: plotly's own encoder writes them (typed arrays as
    # base64, as plotly.js reads them); tojson then makes the JSON safe in a script element.
    env.policies["json.dumps_function"] = _plotly_json
    env.policies["json.dumps_kwargs"] = {}
    return env


def _plotly_json(value: object, **_: object) -> str:
    from plotly.io.json import to_json_plotly

    encoded: str = to_json_plotly(value)
    return encoded


def render(template: str, **context: object) -> str:
    """The whole of ``template`` rendered with ``context`` (the values its template reads, only
    handed to Jinja2 here)."""
    return environment().get_template(template).render(**context)


class _Macros:
    """The macros of one template, by name (``blocks.card(...)``)."""

    def __init__(self, template: str) -> None:
        self._template = template

    def __getattr__(self, name: str) -> Macro:
        module = environment().get_template(self._template).module
        macro: Macro = getattr(module, name)
        return macro


#: Cards, tables, cells and charts.
blocks = _Macros("blocks.html.j2")
#: The sections' hints and notes that hold markup.
hints = _Macros("hints.html.j2")
