print("counter example")
