"""A whole-request 422 of an ingest job: the rows it names become rejects and the rest is sent
again; a row is left out of what is sent again only when it is one of those rejects."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from emissions_etl.errors import ValidationFailedError
from emissions_etl.loading.stages import StageClock
from emissions_etl.loading.writing.ingest_jobs import EncodedChunk, IngestJobWriter
from emissions_etl.loading.writing.results import WriteResult
from emissions_etl.resources import resource_spec


class _RefusingOnce:
    """The service: refuses the first POST with ``errors``, then takes what it is sent."""

    def __init__(self, errors: list[dict[str, object]]) -> None:
        self.errors = errors
        self.posts = 0

    def send_json(self, method: str, path: str, body: object = None, **_: object) -> object:
        self.posts += 1
        if self.posts == 1:
            raise ValidationFailedError(422, "invalid records", errors=self.errors)
        return {"id": "job-1", "status": "queued"}


def _nothing(*_: object) -> None:
    return None


def _writer(api: _RefusingOnce) -> IngestJobWriter:
    spec = resource_spec("wastes")
    marks = SimpleNamespace(clear_pending=_nothing, add_pending=_nothing)
    context = SimpleNamespace(api=api, writer=SimpleNamespace(marks=marks), spec=spec,
                              run_id="run-1", clock=StageClock(), notify=_nothing)  # fmt: skip
    writer = IngestJobWriter(context, spec.write)
    writer._encoded = lambda rows: EncodedChunk(rows, str(list(rows["_row"])).encode(), "k")
    return writer


def test_a_refusal_whose_index_is_no_row_number_sends_that_row_again_not_drops_it() -> None:
    rows = pd.DataFrame({"_file": "w.csv", "_sheet": "", "_row": [2, 3, 4], "_key": "",
                         "source_key": ["a", "b", "c"], "source_hash": "h"})  # fmt: skip
    api = _RefusingOnce([
        {"index": 0, "field": "quantity", "code": "MUST_BE_POSITIVE", "message": "too small"},
        {"index": "1", "field": "quantity", "code": "MUST_BE_POSITIVE", "message": "too small"},
    ])  # fmt: skip
    result = WriteResult()

    sent = _writer(api)._send_chunk(EncodedChunk(rows, b"[2, 3, 4]", "k"), result)

    assert sent is not None
    assert list(sent.rows["_row"]) == [3, 4]
    assert result.refused == sum(len(frame) for frame in result.rejects) == 1
    assert list(pd.concat(result.rejects)["row"]) == [2]
