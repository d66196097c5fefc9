"""No Thanks! as a sanssim plug-in game: the worked example of README "Adding a game"."""
