n = 5000000
h = 1.0 / n
s = 0.0
for i = 0, n - 1 do
  x = (i + 0.5) * h
  s = s + 4.0 / (1.0 + x * x)
end
print(string.format("%.17g", s * h))
