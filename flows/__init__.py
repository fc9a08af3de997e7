"""Prefect flows: thin wiring over emissions_etl (the logic lives in src/). Installed as
``emissions_etl_flows``, with ``prefect.yaml``, the deployments of these flows by module path."""
