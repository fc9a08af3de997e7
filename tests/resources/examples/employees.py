from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["name", "email", "situation", "status"]
ROWS: list[list[object]] = [
    ["Ana García", "ana.garcia@example.es", "active", None],
    ["Jordi Puig", "Jordi.Puig@example.es", "Activo", None],
    ["Lucía Fernández", "lucia.fernandez@example.es", "inactive", "uploaded"],
    ["Miguel Torres", None, "active", None],
    [None, "s.moreno@example.es", "baja", None],
    ["Carmen Ruiz", "carmen.ruiz@example.es", "active", None],
]

EXAMPLE = Example(
    resource="employees",
    header=HEADER,
    rows=ROWS,
    change=Change(row=2, header="situation", value="terminated"),
    # The interface gives no length for an e-mail; the service refuses over 255 characters.
    refusal=Refusal(
        row=["Pedro Largo", "pedro." + "largo" * 50 + "@example.es", "active", None],
        header="email",
        code="string_too_long",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/employees")),
    cleared=Cleared(row=0, header="name", field="name"),
)
