"""How a run looks in a terminal or on GRACE's page: outcomes, citations and plain-text styling."""
