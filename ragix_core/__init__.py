"""ragix: small local LLMs as bounded, traced, auditable reasoning agents."""

__version__ = "0.30.0"
