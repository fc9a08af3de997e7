"""Settings for flows: environment variables first, then Prefect blocks and variables.

Data engineers who run flows from the Prefect UI keep the key in a ``Secret`` block named
``emissions-api-key`` and the rest in variables ``emissions_api_url``,
``emissions_organization_id``, ``emissions_ca_file``, ``emissions_warehouse``,
``emissions_warehouse_data``, ``emissions_inbox`` and ``emissions_shared_limits``
(``emissions-etl prefect-setup`` writes them; several organizations: ``organizations``).
Everything here is read when a run starts, never when a deployment is made, so a changed
variable applies to the next run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal, overload

from pydantic import SecretStr, TypeAdapter, ValidationError

from emissions_etl.errors import ConfigurationError
from emissions_etl.json_values import JsonValue
from emissions_etl.scrubbing import keep_secret
from emissions_etl.settings import Settings
from emissions_etl.storage import AnyPath, as_path, is_file, is_folder

SECRET_BLOCK = "emissions-api-key"
#: Settings field -> Prefect variable holding it (the environment's EMISSIONS_<FIELD> wins).
VARIABLES = {
    "api_url": "emissions_api_url",
    "organization_id": "emissions_organization_id",
    "ca_file": "emissions_ca_file",
    "warehouse": "emissions_warehouse",
    "warehouse_data": "emissions_warehouse_data",
    "inbox": "emissions_inbox",
    "inbox_queue": "emissions_inbox_queue",
    "shared_limits": "emissions_shared_limits",
}
#: What a load cannot do without, and where a deployment looks for it.
REQUIRED = {
    "api_url": f"the Prefect variable {VARIABLES['api_url']}",
    "api_key": f"the Secret block {SECRET_BLOCK}",
    "organization_id": f"the Prefect variable {VARIABLES['organization_id']}",
}


def resolve_settings(*, require_api: bool = True) -> Settings:
    """Settings from the environment, completed from Prefect where a value is missing.

    With ``require_api`` a missing URL, key or organization is a ConfigurationError naming both
    places a deployment reads it from, so the fix is clear from the flow run's page.
    """
    settings = Settings()
    updates: dict[str, str | SecretStr] = {}
    if settings.api_key is None:
        key = secret_block_value(SECRET_BLOCK)
        if key:
            updates["api_key"] = SecretStr(key)
    wanted = {  # the environment wins
        field_name: variable
        for field_name, variable in VARIABLES.items()
        if not os.environ.get(f"EMISSIONS_{field_name.upper()}")
    }
    held = prefect_variables(wanted.values())
    for field_name, variable in wanted.items():
        value = held.get(variable)
        if value is not None and str(value):
            updates[field_name] = str(value)
    if updates:
        _check_variables(updates)
        settings = Settings.model_validate({**settings.model_dump(), **updates})
    if require_api:
        check_api(settings)
    return settings


def _check_variables(values: Mapping[str, str | SecretStr]) -> None:
    """ConfigurationError naming each Prefect variable whose value the setting cannot take."""
    problems = []
    for name, value in values.items():
        annotation = Settings.model_fields[name].annotation
        if annotation is None:
            continue
        try:
            TypeAdapter(annotation).validate_python(value)
        except ValidationError as error:
            reason = error.errors()[0]["msg"]
            problems.append(f"the Prefect variable {VARIABLES[name]}: {reason} (got {value!r})")
    if problems:
        raise ConfigurationError(f"invalid setting(s): {'; '.join(problems)}")


def check_api(settings: Settings) -> None:
    """ConfigurationError naming where each missing URL, key or organization is read from."""
    missing = [
        f"{source} (or EMISSIONS_{name.upper()} on the worker)"
        for name, source in REQUIRED.items()
        if not getattr(settings, name)
    ]
    if missing:
        raise ConfigurationError(f"missing setting(s): {'; '.join(missing)}")


def resolve_inbox(given: str | None) -> AnyPath:
    """The inbox folder of this run: ``given``, else EMISSIONS_INBOX, else ``emissions_inbox``.

    Resolved when the run starts (a deployment bakes no path in); a relative path is taken from
    the run's working directory, the project folder (see ``emissions_etl.orchestration.steps``);
    a URL names a folder of an object store (``s3://bucket/inbox``).
    """
    value = given or Settings().inbox or prefect_variable(VARIABLES["inbox"])
    where = f"set the Prefect variable {VARIABLES['inbox']} / EMISSIONS_INBOX"
    if not value:
        raise ConfigurationError(f"no inbox folder given: pass the inbox parameter, or {where}")
    return inbox_folder(value, where)


def inbox_folder(value: str | AnyPath, where: str) -> AnyPath:
    """``value`` as an existing folder (a relative path taken from the run's working
    directory; a URL a folder of its store), or a ConfigurationError ending with ``where`` to
    set it (a StorageError when the store cannot be asked)."""
    path = as_path(value)
    if isinstance(path, Path) and not path.is_absolute():
        path = Path.cwd() / path
    if is_folder(path):
        return path
    if not is_file(path):
        raise ConfigurationError(f"inbox folder {path} does not exist: create it, or {where}")
    raise ConfigurationError(f"inbox {path} is not a folder: {where} to a folder")


def secret_block_value(name: str) -> str | None:
    """The value of the Secret block ``name``; None when there is no such block or no server."""
    try:
        from prefect.blocks.system import Secret

        # call-arg: Prefect's async_dispatch takes _sync, which load's own signature leaves out
        block = Secret.load(name, _sync=True)  # type: ignore[call-arg]
        assert isinstance(block, Secret)  # with _sync the block, never the coroutine of aload
        value = str(block.get())
    except (ValueError, RuntimeError):
        return None  # no such block, or no Prefect API reachable: the environment must do
    keep_secret(value)
    return value


def prefect_variables(names: Iterable[str]) -> dict[str, JsonValue]:
    """The Prefect variables among ``names`` that are set, as Prefect keeps them, read in one
    request: ``resolve_settings`` read its seven one by one, each time a task asked for its
    settings, at a cost to the run's CPU and the server's each time; {} when no server answers.
    """
    wanted = sorted(set(names))
    if not wanted:
        return {}
    try:
        from prefect.client.orchestration import get_client

        with get_client(sync_client=True) as client:
            response = client.request(
                "POST",
                "/variables/filter",
                json={"variables": {"name": {"any_": wanted}}, "limit": len(wanted)},
            )
    except (ValueError, RuntimeError):
        return {}
    return {str(held["name"]): held["value"] for held in response.json()}


@overload
def prefect_variable(name: str, *, parse: Literal[True] = True) -> str | None: ...
@overload
def prefect_variable(name: str, *, parse: Literal[False]) -> JsonValue: ...
def prefect_variable(name: str, *, parse: bool = True) -> JsonValue:
    """The Prefect variable ``name`` as text (``parse=False``: as Prefect keeps it, a list or
    an object for JSON); None when it is not set or no server answers."""
    value = prefect_variables([name]).get(name)
    if value is None or not parse:
        return value
    return str(value)
