"""From `origin` and `destination` to a distance for a transport mode: gazetteer look-up, the
mode's feasibility between the places (interface: Business travels, rule 4) and flight uplift."""

from __future__ import annotations

from emissions_sandbox.errors import ServiceError
from emissions_sandbox.gazetteer import Place, find_place, great_circle_km

FLIGHT_UPLIFT = 1.08  # DESNZ methodology: +8 % on great-circle distance for flights
SURFACE_MODES = ("car", "motorbike", "bus", "train", "metro", "trolleybus")
URBAN_MODES = ("metro", "trolleybus")
URBAN_MAX_KM = 100.0  # a metro or trolleybus ride stays within one metropolitan area
FERRY_MAX_KM = 2_500.0  # longer than any scheduled passenger ferry route (e.g. Cádiz–Canaries)


def _place(text: str) -> Place:
    place = find_place(text)
    if place is None:
        raise ServiceError(
            422, "UNKNOWN_PLACE", f"Unknown place {text!r}: not in the sandbox gazetteer"
        )
    return place


def _invalid_mode(transport_type: str, origin: Place, destination: Place, why: str) -> ServiceError:
    return ServiceError(
        422,
        "VALIDATION_ERROR",
        f"transport_type {transport_type} is not possible between {origin.name} and "
        f"{destination.name}: {why}",
    )


def places(origin: str, destination: str) -> tuple[Place, Place]:
    return _place(origin), _place(destination)


def journey_distance_km(transport_type: str, origin_text: str, destination_text: str) -> float:
    """One-way distance in km; 422 for an unknown place or a mode impossible between them."""
    origin, destination = places(origin_text, destination_text)
    if origin == destination:
        raise _invalid_mode(transport_type, origin, destination, "same place")
    distance = great_circle_km(origin, destination)
    if transport_type in SURFACE_MODES and origin.land_mass != destination.land_mass:
        raise _invalid_mode(transport_type, origin, destination, "no land route (sea between)")
    if transport_type in URBAN_MODES and distance > URBAN_MAX_KM:
        raise _invalid_mode(transport_type, origin, destination, "not one metropolitan area")
    if transport_type == "ferry" and not (origin.coastal and destination.coastal):
        raise _invalid_mode(transport_type, origin, destination, "a place is not on the coast")
    if transport_type == "ferry" and distance > FERRY_MAX_KM:
        raise _invalid_mode(transport_type, origin, destination, "no passenger ferry route")
    if transport_type == "aircraft":
        return distance * FLIGHT_UPLIFT
    return distance
