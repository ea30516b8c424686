print("foldsearch-demo: not yet")
