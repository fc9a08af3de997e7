"""The page's building blocks: a card (a titled section with a hint) and an empty-state note."""

from __future__ import annotations

from markupsafe import Markup

from emissions_etl.report.templating import blocks


def card(title: str, hint: str, body: str, *, section_id: str = "") -> Markup:
    """A titled section; ``hint`` and ``body`` are escaped unless they are ``Markup``."""
    return blocks.card(title, hint, body, section_id)


def empty(message: str) -> Markup:
    """What a section says when it has nothing to show."""
    return blocks.empty(message)
