"""The rule modules; each registers its rules with the findings registry when imported."""
