"""Pandera schemas mirroring the resource tables of the service interface."""
