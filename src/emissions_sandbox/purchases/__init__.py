"""Purchases (interface: Purchase; facts §8): spend-based and supplier-specific co2e."""
