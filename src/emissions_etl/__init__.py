"""emissions-etl: activity data from spreadsheets and ERP exports to the emissions service.

The packages are floors, and imports run down only (the ``layers`` contract of import-linter in
``pyproject.toml``; packages on one floor do not import each other): ``cli`` and
``prefect_steps``; ``orchestration``; ``templates`` and ``report``; ``loading``; ``profiles``,
``webhooks``, ``inventory`` and ``connection``; ``resources`` and ``organizations``;
``settings``; ``client`` and ``warehouse``; ``domain``; ``sources``; ``errors``. The top of each
package says what it is for and what it may import.
"""

__version__ = "0.1.0"
