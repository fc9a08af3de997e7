"""Business travels (interface: Business travels; facts §7): records, a gazetteer for
origin/destination distances, and a worker that calculates co2e from DESNZ 2024 factors."""
