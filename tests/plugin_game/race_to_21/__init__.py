"""Race to 21, a plug-in game for pbem: the example in the contributor's guide."""
