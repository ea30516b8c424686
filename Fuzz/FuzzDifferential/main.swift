print("FuzzDifferential: not yet")
