"""Employees and their commuting periods (interface: Employee; facts §9.1): scope 3 category 7,
co2e of each period from its travel days, distance and a DESNZ 2024 factor."""
