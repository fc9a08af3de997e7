from __future__ import annotations

from tests.resources.examples import Change, Cleared, Example, Refusal

HEADER = ["product_name", "description", "sector", "country", "quantity", "unit", "purchase_date",
          "purchase_type", "expense_type", "recycled", "supplier_id", "client_row_id"]  # fmt: skip

EXAMPLE = Example(
    resource="purchases",
    header=HEADER,
    rows=[
        ["Office paper A4", "500 reams", "322230", "ES", 1250.5, "EUR", "2026-01-15", None,
         "opex", 0.3, "B12345678", "PO-1"],
        ["Laptops", "12 units", "334111", "ES", 18400, "EUR", "2026-02-03", None, "capex", None,
         "A87654321", "PO-2"],
        ["Legal advice", None, "Offices of Lawyers", "ES", 5200, "€", "2026-02-20", "spend_based",
         "opex", None, None, "PO-3"],
        ["Cloud hosting", "March", "518210", "IE", 2300, "USD", "2026-03-01", None, "opex", None,
         None, "PO-4"],
        ["Courier services", None, "NAICS 492110", "ES", 780, "EUR", "2026-03-18", None, None,
         None, None, "PO-5"],
        ["Office chairs", None, "337214", "PT", 9650, "EUR", "2026-04-07", None, "capex", 0.1,
         None, "PO-6"],
    ],  # fmt: skip
    change=Change(row=0, header="quantity", value=1400.0),
    # The service's own rule: a supplier-specific purchase needs the organization's emission
    # factor (custom_emission_factor_id); without it the create is a 422 validation list.
    refusal=Refusal(
        row=["Recycled steel", None, "331110", "ES", 2.5, "t", "2026-05-05", "supplier_specific",
             "capex", 0.6, None, "PO-9"],  # fmt: skip
        header="custom_emission_factor_id",
        code="value_error",
    ),
    count=lambda client: sum(1 for _ in client.iter_items("/v1/purchases")),
    cleared=Cleared(row=0, header="description", field="description"),
)
