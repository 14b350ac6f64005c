local function integrate(n)
  local h = 1.0 / n
  local s = 0.0
  for i = 0, n - 1 do
    local x = (i + 0.5) * h
    s = s + 4.0 / (1.0 + x * x)
  end
  return s * h
end
print(string.format("%.17g", integrate(5000000)))
