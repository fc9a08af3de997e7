"""The docs site's sources (``mkdocs.yml``); the reference pages' generator
(``generate_reference.py``, ``reference_pages``) is Python, imported by its test."""
