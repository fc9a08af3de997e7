"""Business travels (interface: Business travels; facts §7): records, distances from
origin/destination through the shared gazetteer (`emissions_sandbox.gazetteer`), and a worker
that calculates co2e from DESNZ 2024 factors."""
