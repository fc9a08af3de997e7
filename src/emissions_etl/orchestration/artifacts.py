"""A run's artifacts, kept by the Prefect server for anyone with the UI: every text in them
passes through ``scrubbing.scrub`` first (a run's error may quote what a library said, a
conninfo or a signed URL among it)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from emissions_etl.scrubbing import scrub


def publish_markdown(*, key: str, markdown: str, description: str) -> None:
    """A markdown artifact, scrubbed."""
    from prefect.artifacts import create_markdown_artifact

    create_markdown_artifact(key=key, markdown=scrub(markdown), description=scrub(description))


def publish_table(*, key: str, table: Sequence[Mapping[str, object]], description: str) -> None:
    """A table artifact, each text cell scrubbed."""
    from prefect.artifacts import create_table_artifact

    rows = [
        {name: scrub(value) if isinstance(value, str) else value for name, value in row.items()}
        for row in table
    ]
    create_table_artifact(key=key, table=rows, description=scrub(description))
