"""The Textual application: the App, the palette, help and one module per screen; the only place that imports
textual."""
