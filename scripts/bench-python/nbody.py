def make_bodies():
    pi = 3.14159265358979323
    solar_mass = 4 * pi * pi
    dpy = 365.24
    xs = [[0.0, 0.0, 0.0],
          [4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
          [8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
          [1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
          [1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01]]
    vs = [[0.0, 0.0, 0.0],
          [1.66007664274403694e-03 * dpy, 7.69901118419740425e-03 * dpy, -6.90460016972063023e-05 * dpy],
          [-2.76742510726862411e-03 * dpy, 4.99852801234917238e-03 * dpy, 2.30417297573763929e-05 * dpy],
          [2.96460137564761618e-03 * dpy, 2.37847173959480950e-03 * dpy, -2.96589568540237556e-05 * dpy],
          [2.68067772490389322e-03 * dpy, 1.62824170038242295e-03 * dpy, -9.51592254519715870e-05 * dpy]]
    ms = [solar_mass, 9.54791938424326609e-04 * solar_mass, 2.85885980666130812e-04 * solar_mass,
          4.36624404335156298e-05 * solar_mass, 5.15138902046611451e-05 * solar_mass]
    return xs, vs, ms

def offset_momentum(vs, ms, nb):
    px = 0.0
    py = 0.0
    pz = 0.0
    for i in range(nb):
        v = vs[i]
        m = ms[i]
        px -= v[0] * m
        py -= v[1] * m
        pz -= v[2] * m
    m0 = ms[0]
    v0 = vs[0]
    v0[0] = px / m0
    v0[1] = py / m0
    v0[2] = pz / m0

def energy(xs, vs, ms, nb):
    e = 0.0
    for i in range(nb):
        v = vs[i]
        e += 0.5 * ms[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
        xi = xs[i]
        for j in range(i + 1, nb):
            xj = xs[j]
            dx = xi[0] - xj[0]
            dy = xi[1] - xj[1]
            dz = xi[2] - xj[2]
            e -= ms[i] * ms[j] / (dx * dx + dy * dy + dz * dz) ** 0.5
    return e

def advance(xs, vs, ms, nb, dt, steps):
    for step in range(steps):
        for i in range(nb):
            xi = xs[i]
            vi = vs[i]
            mi = ms[i]
            for j in range(i + 1, nb):
                xj = xs[j]
                vj = vs[j]
                dx = xi[0] - xj[0]
                dy = xi[1] - xj[1]
                dz = xi[2] - xj[2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * d2 ** 0.5)
                bm = ms[j] * mag
                vi[0] -= dx * bm
                vi[1] -= dy * bm
                vi[2] -= dz * bm
                bm = mi * mag
                vj[0] += dx * bm
                vj[1] += dy * bm
                vj[2] += dz * bm
        for i in range(nb):
            xi = xs[i]
            vi = vs[i]
            xi[0] += dt * vi[0]
            xi[1] += dt * vi[1]
            xi[2] += dt * vi[2]

bodies = make_bodies()
xs = bodies[0]
vs = bodies[1]
ms = bodies[2]
offset_momentum(vs, ms, 5)
print(energy(xs, vs, ms, 5))
advance(xs, vs, ms, 5, 0.01, 100000)
print(energy(xs, vs, ms, 5))
