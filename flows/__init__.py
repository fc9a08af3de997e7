"""Prefect flows: thin wiring over emissions_etl (the logic lives in src/)."""
