"""Pictures of the game: board diagrams (`diagram`: SVG and text) and evaluation graphs (`evalgraph`)."""
