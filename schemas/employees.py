"""Employees as an HR export has them, column for column with the employee create.

Mirrors facts §9.1 (``POST /v1/employees``): a name or an e-mail (at least one), ``situation``
and ``status`` (``uploaded`` when empty). An employee is identified by the e-mail when given,
else by the name; commuting files name employees the same way.
"""

# ruff: noqa: E501  (one line per column, so the class reads as the interface table)
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pandera.pandas as pa
from pandera.typing import Series

import emissions_etl_schemas.checks  # noqa: F401  (registers is_email, at_least_one_of)

#: Facts §9.1: a name is 1 to 255 characters.
NAME_MAX = 255
SITUATIONS = ("active", "inactive", "terminated")
SITUATION_WORDS = {
    "activo": "active", "activa": "active", "alta": "active", "en_activo": "active",
    "inactivo": "inactive", "inactiva": "inactive", "excedencia": "inactive", "on_leave": "inactive",
    "leave": "inactive", "baja": "terminated", "baja_definitiva": "terminated", "left": "terminated",
    "leaver": "terminated", "terminado": "terminated", "despedido": "terminated",
}  # fmt: skip


# fmt: off
class EmployeeInput(pa.DataFrameModel):
    """One row of an HR export (facts §9.1: employee create)."""

    name: Series[str] = pa.Field(nullable=True, str_length={"max_value": NAME_MAX}, description="Full name; identifies the employee when there is no e-mail.", metadata={"example": "Ana García"})
    email: Series[str] = pa.Field(nullable=True, is_email=(), description="Work e-mail, one per employee; identifies the employee when given.", metadata={"example": "ana.garcia@example.es"})
    situation: Series[str] = pa.Field(isin=SITUATIONS, description="active, inactive or terminated.", metadata={"synonyms": SITUATION_WORDS, "example": "active"})
    status: Series[str] = pa.Field(nullable=True, isin=("uploaded", "loading"), description="uploaded (when empty) or loading.", metadata={"example": "uploaded"})

    class Config:
        name = "EmployeeInput"
        strict = False  # origin columns (_file, _sheet, _row) and unknown columns ride along
        at_least_one_of = {"columns": ["email", "name"]}
# fmt: on


#: Columns without which a row means nothing (a name or an e-mail is checked per row).
REQUIRED_INPUT_COLUMNS = ("situation",)

#: Header spellings of HR exports -> canonical column (compared after normalising: lowercase;
#: spaces, underscores, hyphens and dots removed).
INPUT_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "employee": "name",
        "full name": "name",
        "nombre": "name",
        "nombre y apellidos": "name",
        "nombre completo": "name",
        "empleado": "name",
        "e-mail": "email",
        "mail": "email",
        "correo": "email",
        "correo electrónico": "email",
        "correo electronico": "email",
        "work email": "email",
        "employment status": "situation",
        "situación": "situation",
        "situacion": "situation",
        "estado laboral": "situation",
        "upload status": "status",
    }
)
