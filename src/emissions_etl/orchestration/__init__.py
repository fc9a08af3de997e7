"""The Prefect glue: settings from blocks and variables (``config``), the server set-up
(``setup``, with ``alerts``: the automations that notify), the deployments' pull step
(``steps``), the turns runs take on a warehouse (``warehouse_turns``), and what a run tells:
its names (``run_names``), its summary and artifacts (``run_report``), its end state
(``run_states``) and its quieted logs (``run_logs``). Flows in ``flows/`` wire these to the load
engine."""
