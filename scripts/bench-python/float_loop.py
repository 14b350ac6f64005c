def integrate(n):
    h = 1.0 / n
    s = 0.0
    for i in range(n):
        x = (i + 0.5) * h
        s += 4.0 / (1.0 + x * x)
    return s * h
print(integrate(5000000))
