"""Exporters: every output format is one function over the same results."""
