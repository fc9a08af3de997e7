"""Deployments created before the load engine, the Prefect glue and the command line became
packages name ``emissions_etl.prefect_steps.set_project_directory`` as their pull step; this
name keeps them running until ``emissions-etl prefect-setup`` deploys them again."""

from emissions_etl.orchestration.steps import set_project_directory

__all__ = ["set_project_directory"]
