"""emissions-etl: activity data from spreadsheets and ERP exports to the Emissions Accounting Service."""

__version__ = "0.1.0"
