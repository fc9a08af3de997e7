"""The load engine: a file's rows from reading to the warehouse.

``detection`` and ``inbox`` say which resource a file holds; ``validation`` (with ``cell_kinds``)
judges its cells, in the words of ``emissions_etl.domain`` (rejects, row keys, reference lists);
``pipeline`` runs one file end to end through its stages (``options``, ``preparation``,
``refresh``, ``validated``, ``batch``, ``reconcile``, ``mirror``, ``summary``) and
``file_loads`` several, parents first; ``writing/`` sends records by the resource's write
strategy; ``readback`` reads the calculated co2e; ``identity`` is the one rule that finds a
record again; ``reject_files`` hands the rejects to people. It asks the warehouse for what it
needs through the ports of ``ports``, as it asks the service through ``writing.WriteApi``.

Floor: below templates and report, above profiles, webhooks, inventory and connection. May
import those and every floor below them: resources, organizations, settings, client, warehouse,
domain, sources, errors; never templates, report, the orchestration or the command line.
"""
