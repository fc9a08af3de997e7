"""The load engine: a file's rows from reading to the warehouse.

``detection`` and ``inbox`` say which resource a file holds; ``validation`` (with ``cell_kinds``,
``row_keys`` and ``rejects``) judges its cells; ``references`` resolves names to ids;
``writing/`` sends records by the resource's write strategy; ``readback`` reads the calculated
co2e; ``pipeline`` runs one file end to end and ``file_loads`` several, parents first.

This package face re-exports nothing: resource modules import ``references`` and ``rejects``
while ``pipeline`` imports the resources, so eager imports here would make a cycle.
"""
