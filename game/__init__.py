"""Rose King: a digital edition of Rosenkönig (Dirk Henn, Kosmos)."""

__version__ = "0.1.0"
