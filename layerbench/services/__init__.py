"""Backing services the application runs against, created by the tool and removed afterwards."""
