"""emissions-etl: activity data from spreadsheets and ERP exports to the emissions service."""

__version__ = "0.1.0"
