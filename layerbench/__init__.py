"""layerbench: what each layer of a Python web stack costs, measured carefully."""

__version__ = "0.1.0"
