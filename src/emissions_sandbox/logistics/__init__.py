"""Logistics (interface: Logistics, Logistic hubs; facts §4, §9.3): shipments (requests),
fuel recharges, packages, the summary and logistic hubs, calculated per ISO 14083 / GLEC."""
