"""Export profiles: a real system's export layout (SAP ME2N, a Concur expense export, a fuel-card
statement, a TMS shipment export...) declared as a mapping onto one resource's columns.

Each profile is a small TOML file here (``<name>.toml``): the source columns with their
spellings, which are required, and how each resource column is fed (``from`` a source column,
a ``value``, or ``map`` through a table of ``tables/``). Nothing is coded per column; the
generic modules read the declarations (``catalog``), tell which profile a header fits
(``detect``), turn a batch into the resource's columns (``apply``) and feed the loader
(``reading``). This module imports nothing heavy, so the CLI's ``profiles`` command is cheap.

Floor: with ``webhooks``, ``inventory`` and ``connection``, below the load engine. May import
resources, organizations, settings, client, warehouse, domain, sources and errors; never the
packages beside it, nor the load engine or anything above.
"""
