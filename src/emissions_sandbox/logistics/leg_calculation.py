"""Emissions of one shipment leg per ISO 14083 / GLEC v3 (facts §4.5, §4.6):
co2e (kg) = load (t) × distance (km) × the TOC's well-to-wheel factor (kg CO2e per t·km)."""

from __future__ import annotations

from dataclasses import dataclass, field

from emissions_sandbox import gazetteer
from emissions_sandbox.logistics import reference
from emissions_sandbox.logistics.models import RequestIn


class LegError(Exception):
    """A leg that cannot be calculated; `code` is stable (README: logistics error codes)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


@dataclass
class LegFigures:
    toc: str
    category: str
    distance_km: float
    load_tonnes: float
    tkm: float
    co2e: float
    emission_intensity: float  # g CO2e per t·km (facts §4.6, intensity values)
    estimated_data: list[str] = field(default_factory=list)


def resolve_toc(body: RequestIn) -> reference.Toc:
    """The named TOC, or the generic average TOC of the category (facts §4.1, §4.6)."""
    if body.toc is not None:
        toc = reference.tocs().get(body.toc)
        if toc is None:
            raise LegError("TOC_NOT_FOUND", f"Unknown toc {body.toc!r}; see GET /v1/logistics/tocs")
        return toc
    assert body.category is not None  # RequestIn requires toc or category
    return reference.category_default_toc(body.category)


def leg_distance_km(body: RequestIn) -> float:
    """`distance_km` when sent (geocoding skipped, facts §4.6), else gazetteer great-circle."""
    if body.distance_km is not None:
        return body.distance_km
    assert body.origin is not None
    assert body.destination is not None
    found = reference.distance_km(body.origin, body.destination)
    if found is None:  # the detail quotes only the places not found: a client can tell which
        unknown = [repr(p) for p in (body.origin, body.destination) if not gazetteer.find_place(p)]
        raise LegError(
            "LOCATION_NOT_FOUND", f"Cannot locate {' or '.join(unknown)}; send distance_km"
        )
    return found


def load_tonnes(body: RequestIn, toc: reference.Toc) -> tuple[float, bool]:
    """(tonnes, estimated): load × unit × load_factor, or the TOC's default load (facts §4.1)."""
    if body.load is None:
        return toc.default_load_kg / 1000, True
    return body.load * reference.tonnes_per_load_unit()[body.load_unit] * body.load_factor, False


def calculate_leg(body: RequestIn) -> LegFigures:
    toc = resolve_toc(body)
    distance = leg_distance_km(body)
    tonnes, load_estimated = load_tonnes(body, toc)
    # a client-sent tkm is taken as measured (facts §4.1 lists it as input)
    tkm = body.tkm if body.tkm is not None else tonnes * distance
    co2e = tkm * toc.wtw
    estimated = [
        name
        for name, flag in (("load", load_estimated), ("distance_km", body.distance_km is None))
        if flag
    ]
    return LegFigures(
        toc=toc.toc,
        category=toc.category,
        distance_km=distance,
        load_tonnes=tonnes,
        tkm=tkm,
        co2e=co2e,
        emission_intensity=co2e * 1000 / tkm if tkm else 0.0,
        estimated_data=estimated,
    )
