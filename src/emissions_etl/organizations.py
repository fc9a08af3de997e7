"""Settings per organization, for groups and consultancies that load several, each with its own
key, into one warehouse: a TOML file named by ``EMISSIONS_ORGANIZATIONS`` (without Prefect), or
in Prefect the variable ``emissions_organizations`` with one Secret block per organization
(``emissions-etl prefect-setup`` writes them from the file).

    [defaults]                          # shared by every organization (optional)
    api_url = "https://api.example.com"

    [[organization]]
    name = "acme-es"                    # names runs, logs, inbox folders: letters, digits, - _
    organization_id = "8d0c..."
    api_key_env = "ACME_ES_API_KEY"     # the key, read from this variable (or api_key = "...")
    inbox = "/data/inbox/acme-es"       # optional: default <inbox>/<name>

An organization's settings are the ``EMISSIONS_*`` settings with its own values over them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from emissions_etl.errors import ConfigurationError
from emissions_etl.json_values import JsonValue
from emissions_etl.scrubbing import keep_secret
from emissions_etl.settings import Settings
from emissions_etl.storage import AnyPath, as_path

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
#: Fields an organization (or the defaults) may set, besides its name and key.
_SHARED = ("api_url", "ca_file", "inbox")


@dataclass(frozen=True)
class Organization:
    """One organization to load: who it is to the service, and where its files wait."""

    name: str
    organization_id: str
    api_key: SecretStr
    api_url: str | None = None
    ca_file: Path | None = None
    #: Its own inbox folder, a local path or an object-store URL (``s3://bucket/pt-exports``).
    inbox: str | None = None

    def settings(self, base: Settings) -> Settings:
        """``base`` with this organization's values over it."""
        values: dict[str, str | SecretStr | Path] = {
            "organization_id": self.organization_id,
            "api_key": self.api_key,
        }
        if self.api_url:
            values["api_url"] = self.api_url
        if self.ca_file:
            values["ca_file"] = self.ca_file
        return base.model_copy(update=values)

    def inbox_under(self, inbox: AnyPath) -> AnyPath:
        """Its inbox: its own, else the folder of its name in ``inbox``."""
        return as_path(self.inbox) if self.inbox else inbox / self.name

    def public(self) -> dict[str, str]:
        """What may be stored and shown (a Prefect variable, a log line): never the key."""
        shown = {"name": self.name, "organization_id": self.organization_id}
        for name in _SHARED:
            if getattr(self, name):
                shown[name] = str(getattr(self, name))
        return shown


def read_organizations(path: Path, environ: Mapping[str, str] | None = None) -> list[Organization]:
    """The organizations of the TOML file ``path``; ConfigurationError names what is wrong."""
    environ = os.environ if environ is None else environ
    data = _toml(path)
    defaults = _table(data.get("defaults", {}), f"{path}: [defaults]")
    entries = data.get("organization", [])
    if not isinstance(entries, list) or not entries:
        raise ConfigurationError(f"{path}: no [[organization]] entry")
    found = [
        _organization(_table(entry, f"{path}: organization entry {n}"), defaults, environ, path)
        for n, entry in enumerate(entries, start=1)
    ]
    names = [org.name for org in found]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ConfigurationError(f"{path}: organization name(s) given twice: {', '.join(repeated)}")
    return found


def _toml(path: Path) -> dict[str, object]:
    """The organizations file read; ConfigurationError when it is missing or not TOML."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigurationError(f"EMISSIONS_ORGANIZATIONS: no file {path}") from None
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigurationError(
            f"EMISSIONS_ORGANIZATIONS: {path} is unreadable: {error}"
        ) from None


def _table(value: object, what: str) -> Mapping[str, object]:
    """``value`` as a table of the file (``[defaults]``, an ``[[organization]]``);
    ConfigurationError naming ``what`` otherwise."""
    if not isinstance(value, dict):
        raise ConfigurationError(f"{what} is not a table of name = value lines")
    return value


def _organization(
    entry: Mapping[str, object],
    defaults: Mapping[str, object],
    environ: Mapping[str, str],
    path: Path,
) -> Organization:
    merged = {**defaults, **entry}
    name = str(merged.get("name") or "")
    if not _NAME.match(name):
        raise ConfigurationError(
            f"{path}: organization name {name!r} must be letters, digits, - or _ (it names runs "
            "and folders)"
        )
    if not merged.get("organization_id"):
        raise ConfigurationError(f"{path}: organization {name} has no organization_id")
    key = merged.get("api_key")
    if not key and merged.get("api_key_env"):
        key = environ.get(str(merged["api_key_env"]))
        if not key:
            raise ConfigurationError(
                f"{path}: organization {name}: the variable {merged['api_key_env']} is not set"
            )
    if not key:
        raise ConfigurationError(f"{path}: organization {name} has no api_key nor api_key_env")
    keep_secret(key)
    return Organization(
        name=name,
        organization_id=str(merged["organization_id"]),
        api_key=SecretStr(str(key)),
        api_url=_text(merged.get("api_url")),
        ca_file=Path(str(merged["ca_file"])) if merged.get("ca_file") else None,
        inbox=str(merged["inbox"]) if merged.get("inbox") else None,
    )


def find_organization(organizations: list[Organization], given: str) -> Organization:
    """The organization ``given`` names (its name, else its id: ``matching``), or a
    ConfigurationError listing the ones there are."""
    name, _ = named([(o.name, o.organization_id) for o in organizations], given)
    return next(o for o in organizations if o.name == name)


def named(known: Sequence[tuple[str, str]], given: str) -> tuple[str, str]:
    """``matching``'s (name, organization id) of ``known``, or a ConfigurationError listing the
    names there are."""
    found = matching(known, given)
    if found is not None:
        return found
    names = ", ".join(name for name, _ in known) or "none"
    raise ConfigurationError(
        f"no organization named {given!r} (organizations known: {names}); list it in the "
        "organizations file (EMISSIONS_ORGANIZATIONS, or in Prefect the variable "
        "emissions_organizations: prefect-setup --organizations FILE)"
    )


def matching(known: Sequence[tuple[str, str]], given: str) -> tuple[str, str] | None:
    """The (name, organization id) of ``known`` that ``given`` names: by name first, else by
    id (every ``--organization`` takes either); None when it names none of them."""
    given = given.strip()
    for name, organization_id in known:
        if name == given:
            return name, organization_id
    for name, organization_id in known:
        if organization_id == given:
            return name, organization_id
    return None


def organization_id_of(given: str, organizations_file: Path | None) -> str:
    """The id of the organization ``given`` names among those of ``organizations_file`` (its
    name or its id; keys are not needed: only names and ids are read), else ``given`` itself,
    taken as an id (a warehouse may hold organizations no file lists)."""
    if organizations_file is None:
        return given.strip()
    found = matching(names_and_ids(organizations_file), given)
    return found[1] if found is not None else given.strip()


def names_and_ids(path: Path) -> list[tuple[str, str]]:
    """(name, organization id) of each organization of the TOML file ``path``, without their
    keys (what reading the inventory of one needs)."""
    entries = _toml(path).get("organization", [])
    return [
        (str(entry.get("name")), str(entry["organization_id"]))
        for entry in (entries if isinstance(entries, list) else [])
        if isinstance(entry, Mapping) and entry.get("organization_id")
    ]  # fmt: skip


def settings_of(name: str, base: Settings) -> Settings:
    """``base`` with the values of the organization ``name`` (or id) of its organizations
    file."""
    if base.organizations is None:
        raise ConfigurationError(
            f"organization {name}: no organizations file to find it in (--organizations FILE "
            "or EMISSIONS_ORGANIZATIONS)"
        )
    return find_organization(read_organizations(base.organizations), name).settings(base)


def from_public(
    entries: Sequence[Mapping[str, JsonValue]], keys: Mapping[str, SecretStr]
) -> list[Organization]:
    """Organizations from what ``public`` stored (a Prefect variable) and their keys (Secret
    blocks), by name."""
    found = []
    for entry in entries:
        name = str(entry.get("name"))
        if name not in keys:
            raise ConfigurationError(f"organization {name} has no key (its Secret block)")
        found.append(
            Organization(
                name=name,
                organization_id=str(entry["organization_id"]),
                api_key=keys[name],
                api_url=_text(entry.get("api_url")),
                ca_file=Path(str(entry["ca_file"])) if entry.get("ca_file") else None,
                inbox=str(entry["inbox"]) if entry.get("inbox") else None,
            )
        )
    return found


def _text(value: object) -> str | None:
    """A value of the file or the variable as text (a URL); None when not given."""
    return None if value is None else str(value)


def one_organization(held: Sequence[str | None], given: str | None, what: str) -> str | None:
    """The organization a reading of a warehouse is of: ``given`` when the warehouse holds it
    (``held``: the organizations its rows name; None, not recorded), else the only one it
    holds (None for a warehouse written before organizations were recorded). Several and none
    named, or one it does not hold, is a ConfigurationError saying ``what`` is one
    organization's (``an inventory``, ``the coverage``)."""
    ids = sorted({str(org) for org in held if org is not None})
    named = ", ".join(ids) or "no organization id"
    if given is not None:
        if given not in ids:
            raise ConfigurationError(
                f"--organization {given}: this warehouse holds no record of it (it holds {named})"
            )
        return given
    if len(ids) > 1:
        raise ConfigurationError(
            f"this warehouse holds {len(ids)} organizations ({named}): {what} is one "
            "organization's, name it with --organization"
        )
    return ids[0] if ids else None
