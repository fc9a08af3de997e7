"""What the commands take as files and folders, here or in an object store: ``load`` and
``validate`` read files and folders (a folder as the nightly reads its inbox), ``--rejects``,
``report --out`` and ``inventory --out`` write a file. Each is a local path or a URL
(``s3://``, ``gs://``, ``az://``, ``file://``: ``emissions_etl.storage``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from emissions_etl.loading.file_plan import PlannedFile
    from emissions_etl.storage import AnyPath

#: Said in --help wherever a path may be a URL.
ANYWHERE = "a local path or an s3://, gs://, az:// or file:// URL"


def plan_inputs(
    given: list[str], resource: str | None, sheets: list[str] | None, profile: str | None
) -> list[PlannedFile]:
    """Each file as the resource named, else its folder's; else a csv as the resource its header
    fits and a workbook sheet by sheet, each sheet to the one its name or header fits. A folder
    is planned as the nightly plans its inbox (``loading.inbox.plan_folder``)."""
    from emissions_etl.errors import SourceNotFoundError
    from emissions_etl.loading.file_plan import plan_file
    from emissions_etl.loading.inbox import LOADABLE_SUFFIXES, plan_folder, resource_of_folder
    from emissions_etl.resources import resource_spec
    from emissions_etl.storage import as_path, is_folder

    named = resource_spec(resource) if resource else None
    planned: list[PlannedFile] = []
    for text in given:
        path = as_path(text)
        if is_folder(path):
            if named is not None or sheets or profile:
                raise ValueError(
                    f"{path} is a folder: its files are recognised as the nightly recognises "
                    "its inbox's (inbox/<resource>/ names their resource); --resource, --sheet "
                    "and --profile name a file's"
                )
            found = plan_folder(path)
            if not found:
                raise SourceNotFoundError(
                    str(path), f"no file to load in this folder ({', '.join(LOADABLE_SUFFIXES)})"
                )
            planned += found
            continue
        planned += plan_file(path, spec=named or resource_of_folder(path),
                             sheets=tuple(sheets or ()), profile=profile)  # fmt: skip
    return planned


def output_path(text: str | None) -> AnyPath | None:
    """A file a command writes, here or in a store (None stays None)."""
    from emissions_etl.storage import as_path

    return None if text is None else as_path(text)
