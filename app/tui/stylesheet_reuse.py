"""Textual's stylesheet, keeping what it parsed while the CSS variables stay the same.

Textual 8 clears its parse cache whenever the variables are set (even to the same values) and parses every
source again in a throwaway stylesheet on every reparse. A mode app's first screen asks for both, so
app.tcss and every widget's DEFAULT_CSS were parsed three times before the first frame (~20 ms here).
"""

from __future__ import annotations

from textual.css.stylesheet import Stylesheet


class ReusingStylesheet(Stylesheet):
    """A Stylesheet whose parses survive setting the same variables again; new variables parse afresh."""

    def set_variables(self, variables: dict[str, str]) -> None:
        """New variables as Textual sets them; the same ones again keep what was parsed with them."""
        if variables == self._variables:
            return
        super().set_variables(variables)

    def reparse(self) -> None:
        """Parse every source again: from this stylesheet's cache while the variables parsed with are the
        ones set (the result is the same), else (new variables, or CSS that failed) in a fresh stylesheet as
        Textual does."""
        if self._parse_cache and not self._invalid_css:
            self.parse()
        else:
            super().reparse()
