"""Flow ``nightly_load``: every file of an inbox folder, one after another, then one summary."""

from __future__ import annotations

from prefect import flow

from emissions_etl.pipeline import LoadOptions
from flows._tasks import list_inbox, load_one_file, publish_artifacts


@flow(name="nightly_load")
def nightly_load(inbox: str = "sample_data/inbox", strict: bool = False) -> dict[str, dict]:
    """Load each file of ``inbox``; a file that fails does not stop the others."""
    summaries = []
    results: dict[str, dict] = {}
    for path in list_inbox(inbox):
        state = load_one_file(path, LoadOptions(strict=strict), return_state=True)
        if state.is_completed():
            summary = state.result()
            summaries.append(summary)
            results[path] = {"outcome": summary.outcome, **summary.counts()}
        else:
            results[path] = {"outcome": "failed", "error": str(state.message)}
    publish_artifacts(summaries)
    return results


if __name__ == "__main__":  # python -m flows.<name> ... from the project root
    import sys

    nightly_load(sys.argv[1] if len(sys.argv) > 1 else "sample_data/inbox")
