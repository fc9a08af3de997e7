"""emissions-sandbox: a local implementation of the Emissions Accounting Service interface."""
