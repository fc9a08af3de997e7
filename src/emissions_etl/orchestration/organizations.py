"""The organizations a flow run loads, as Prefect holds them: the variable
``emissions_organizations`` lists them (what ``Organization.public`` shows: never a key) and one
Secret block per organization, ``emissions-api-key-<name>``, holds its key. A worker with
``EMISSIONS_ORGANIZATIONS`` set reads that TOML file instead (``emissions_etl.organizations``),
as the environment wins over Prefect for every setting.

``emissions-etl prefect-setup --organizations FILE`` writes the variable and the blocks from the
file. Read when a run starts, so an organization added to the variable is in the next night's
runs.
"""

from __future__ import annotations

import json
import re

from pydantic import SecretStr

from emissions_etl.errors import ConfigurationError
from emissions_etl.json_values import JsonObject, JsonValue
from emissions_etl.orchestration.config import (
    check_api,
    inbox_folder,
    prefect_variable,
    resolve_inbox,
    resolve_settings,
    secret_block_value,
)
from emissions_etl.organizations import (
    Organization,
    find_organization,
    from_public,
    named,
    read_organizations,
)
from emissions_etl.settings import Settings
from emissions_etl.storage import AnyPath

ORGANIZATIONS_VARIABLE = "emissions_organizations"
KEY_BLOCK_PREFIX = "emissions-api-key-"


def key_block_name(name: str) -> str:
    """``emissions-api-key-acme-es``: the Secret block of the organization ``name`` (a block's
    name takes lower-case letters, digits and dashes)."""
    return KEY_BLOCK_PREFIX + re.sub(r"[^a-z0-9-]+", "-", name.lower())


def resolve_organizations() -> list[Organization]:
    """The organizations to load: the worker's EMISSIONS_ORGANIZATIONS file, else the Prefect
    variable and blocks; none when neither is set (a run loads the one organization of the
    plain settings)."""
    path = Settings().organizations
    if path is not None:
        return read_organizations(path)
    return _with_keys(_listed(prefect_variable(ORGANIZATIONS_VARIABLE, parse=False)))


def _with_keys(listed: list[JsonObject]) -> list[Organization]:
    """The organizations ``listed`` (entries of the variable), each with the key its Secret
    block holds."""
    keys: dict[str, SecretStr] = {}
    for entry in listed:
        name = str(entry.get("name"))
        key = secret_block_value(key_block_name(name))
        if key:
            keys[name] = SecretStr(key)
    return from_public(listed, keys)


def organization_names() -> list[str]:
    """The names of the organizations to load, without reading their keys (Secret blocks): what
    a run that starts one run per organization, or names itself, needs."""
    path = Settings().organizations
    if path is not None:
        return [organization.name for organization in read_organizations(path)]
    listed = _listed(prefect_variable(ORGANIZATIONS_VARIABLE, parse=False))
    return [str(entry["name"]) for entry in listed]


def organization_named(name: str) -> Organization:
    """The organization ``name`` (or id), or a ConfigurationError listing the ones there are.
    From Prefect, only its own key is read: every task of a run asks for its organization's
    settings, and reading each organization's Secret block every time made a night of N
    organizations ask Prefect for N * N blocks."""
    path = Settings().organizations
    if path is not None:
        return find_organization(read_organizations(path), name)
    listed = _listed(prefect_variable(ORGANIZATIONS_VARIABLE, parse=False))
    found, _ = named([(str(e["name"]), str(e["organization_id"])) for e in listed], name)
    [organization] = _with_keys([entry for entry in listed if str(entry["name"]) == found])
    return organization


def settings_for(organization: str | None, *, require: bool = True) -> Settings:
    """A run's settings: the plain ones, or with ``organization``'s values over them."""
    if organization is None:
        return resolve_settings(require_api=require)
    settings = organization_named(organization).settings(resolve_settings(require_api=False))
    if require:
        check_api(settings)
    return settings


def inbox_for(given: str | None, organization: str | None) -> AnyPath:
    """A run's inbox: ``resolve_inbox``'s, or for an organization its own (``inbox`` in its
    entry), else the folder of its name in the inbox."""
    if organization is None:
        return resolve_inbox(given)
    found = organization_named(organization)
    if found.inbox is not None:
        return inbox_folder(found.inbox, f"set the inbox of organization {organization}")
    where = f"give organization {organization} an inbox of its own"
    return inbox_folder(found.inbox_under(resolve_inbox(given)), where)


def _listed(value: JsonValue) -> list[JsonObject]:
    """The variable's list of organizations (Prefect keeps JSON; a string of JSON is taken)."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            value = None
    listed = value if isinstance(value, list) else []
    entries = [entry for entry in listed if isinstance(entry, dict)]
    if (
        not isinstance(value, list)
        or len(entries) < len(listed)
        or not all(entry.get("name") and entry.get("organization_id") for entry in entries)
    ):
        raise ConfigurationError(
            f"the Prefect variable {ORGANIZATIONS_VARIABLE} is not a list of organizations "
            "(objects with name and organization_id): write it with prefect-setup "
            "--organizations FILE"
        )
    return entries
