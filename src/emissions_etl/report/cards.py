"""The page's building blocks: a card (a titled section with a hint) and an empty-state note."""

from __future__ import annotations


def card(title: str, hint: str, body: str, *, section_id: str = "") -> str:
    """A titled section; ``hint`` and ``body`` are HTML already escaped."""
    hint_html = f'<p class="hint">{hint}</p>' if hint else ""
    id_attribute = f' id="{section_id}"' if section_id else ""
    return (
        f'<section class="card"{id_attribute}>\n<h2>{title}</h2>\n{hint_html}\n{body}\n</section>\n'
    )


def empty(message: str) -> str:
    """What a section says when it has nothing to show."""
    return f'<p class="empty">{message}</p>'
