print("FuzzFoldedText: not yet")
