"""The Prefect glue: settings from blocks and variables (``config``), the server set-up
(``setup``, with ``alerts``: the automations that notify), the deployments' pull step
(``steps``), the turns runs take on a warehouse (``warehouse_turns``), what the flows run
(``flow_runs``: the options a night loads with, a load task's state read as its outcome;
``organization_runs``: a run per organization), and what a run tells: its names
(``run_names``), its summary and artifacts (``run_report``), its end state (``run_states``) and
its quieted logs (``run_logs``). Flows in ``flows/`` only wire these to Prefect's decorators and
their tasks.

Floor: below the command line, above everything else. May import templates, report, loading and
every floor below them; never the command line.
"""
