"""The load engine: a file's rows from reading to the warehouse.

``detection`` and ``inbox`` say which resource a file holds; ``validation`` (with ``cell_kinds``)
judges its cells, in the words of ``emissions_etl.domain`` (rejects, row keys, reference lists);
``writing/`` sends records by the resource's write strategy; ``readback`` reads the calculated
co2e; ``pipeline`` runs one file end to end and ``file_loads`` several, parents first;
``reject_files`` hands the rejects to people.

It may import every layer below it (resources, profiles, webhooks, warehouse, client, sources,
domain), never the orchestration, the report or the command line above it.
"""
