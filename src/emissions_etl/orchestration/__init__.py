"""The Prefect glue: settings from blocks and variables (``config``), the server set-up
(``setup``), the deployments' pull step (``steps``) and the run's summary and artifacts
(``run_report``). Flows in ``flows/`` wire these to the load engine."""
