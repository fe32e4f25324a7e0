"""Puerto Rico (Andreas Seyfarth): the base game for 2-5 players."""
