local function make_bodies()
  local pi = 3.14159265358979323
  local solar_mass = 4 * pi * pi
  local dpy = 365.24
  local xs = {{0.0, 0.0, 0.0},
    {4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01},
    {8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01},
    {1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01},
    {1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01}}
  local vs = {{0.0, 0.0, 0.0},
    {1.66007664274403694e-03 * dpy, 7.69901118419740425e-03 * dpy, -6.90460016972063023e-05 * dpy},
    {-2.76742510726862411e-03 * dpy, 4.99852801234917238e-03 * dpy, 2.30417297573763929e-05 * dpy},
    {2.96460137564761618e-03 * dpy, 2.37847173959480950e-03 * dpy, -2.96589568540237556e-05 * dpy},
    {2.68067772490389322e-03 * dpy, 1.62824170038242295e-03 * dpy, -9.51592254519715870e-05 * dpy}}
  local ms = {solar_mass, 9.54791938424326609e-04 * solar_mass, 2.85885980666130812e-04 * solar_mass,
    4.36624404335156298e-05 * solar_mass, 5.15138902046611451e-05 * solar_mass}
  return xs, vs, ms
end
local function offset_momentum(vs, ms, nb)
  local px, py, pz = 0.0, 0.0, 0.0
  for i = 1, nb do
    local v, m = vs[i], ms[i]
    px = px - v[1] * m; py = py - v[2] * m; pz = pz - v[3] * m
  end
  local m0, v0 = ms[1], vs[1]
  v0[1] = px / m0; v0[2] = py / m0; v0[3] = pz / m0
end
local function energy(xs, vs, ms, nb)
  local e = 0.0
  for i = 1, nb do
    local v = vs[i]
    e = e + 0.5 * ms[i] * (v[1] * v[1] + v[2] * v[2] + v[3] * v[3])
    local xi = xs[i]
    for j = i + 1, nb do
      local xj = xs[j]
      local dx, dy, dz = xi[1] - xj[1], xi[2] - xj[2], xi[3] - xj[3]
      e = e - ms[i] * ms[j] / (dx * dx + dy * dy + dz * dz) ^ 0.5
    end
  end
  return e
end
local function advance(xs, vs, ms, nb, dt, steps)
  for step = 1, steps do
    for i = 1, nb do
      local xi, vi, mi = xs[i], vs[i], ms[i]
      for j = i + 1, nb do
        local xj, vj = xs[j], vs[j]
        local dx, dy, dz = xi[1] - xj[1], xi[2] - xj[2], xi[3] - xj[3]
        local d2 = dx * dx + dy * dy + dz * dz
        local mag = dt / (d2 * d2 ^ 0.5)
        local bm = ms[j] * mag
        vi[1] = vi[1] - dx * bm; vi[2] = vi[2] - dy * bm; vi[3] = vi[3] - dz * bm
        bm = mi * mag
        vj[1] = vj[1] + dx * bm; vj[2] = vj[2] + dy * bm; vj[3] = vj[3] + dz * bm
      end
    end
    for i = 1, nb do
      local xi, vi = xs[i], vs[i]
      xi[1] = xi[1] + dt * vi[1]; xi[2] = xi[2] + dt * vi[2]; xi[3] = xi[3] + dt * vi[3]
    end
  end
end
local xs, vs, ms = make_bodies()
offset_momentum(vs, ms, 5)
print(string.format("%.17g", energy(xs, vs, ms, 5)))
advance(xs, vs, ms, 5, 0.01, 100000)
print(string.format("%.17g", energy(xs, vs, ms, 5)))
