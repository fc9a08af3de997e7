"""The words every layer speaks: a rejected cell and its codes (``rejects``), the reference
lists that turn names into ids (``references``), and a row's key (``row_keys``).

They sit below the resources, the profiles, the warehouse and the load engine, as a domain model
sits below its adapters: this package imports none of them (only ``sources.cells``, for what a
text column is), so every layer may use these words without an import running back up.

Floor: below the client and the warehouse, above sources. May import sources and errors only.
"""
