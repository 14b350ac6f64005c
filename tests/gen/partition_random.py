# Random partition/argpartition cases (every dtype, sizes 1..3001, duplicates, NaN, several kth)
# for golden tests: /usr/bin/python3 tests/gen/partition_random.py SEED > tests/scripts/partition/NAME.tsr,
# then the .out from the oracle.  Which non-kth element lands where is NumPy's introselect order.
import random
import sys; random.seed(int(sys.argv[1]))
lines = []
for trial in range(int(sys.argv[2]) if len(sys.argv) > 2 else 300):
    n = random.choice([1,2,3,4,5,6,7,8,10,13,17,25,31,50,64,100,257,1000,3001])
    kind = random.choice(['int','float','dup','nan','sorted','rev','f32','u8','bool'])
    if kind == 'int': vals = [random.randint(-1000,1000) for _ in range(n)]; ctor = 'array(%s)'
    elif kind == 'dup': vals = [random.randint(0,3) for _ in range(n)]; ctor = 'array(%s)'
    elif kind == 'float': vals = [round(random.uniform(-10,10),3) for _ in range(n)]; ctor = 'array(%s)'
    elif kind == 'nan': vals = [random.choice(['nan', round(random.uniform(-5,5),2)]) for _ in range(n)]; ctor = 'array(%s)'
    elif kind == 'sorted': vals = list(range(n)); ctor = 'array(%s)'
    elif kind == 'rev': vals = list(range(n,0,-1)); ctor = 'array(%s)'
    elif kind == 'f32': vals = [round(random.uniform(-10,10),2) for _ in range(n)]; ctor = 'array(%s, dtype=float32)'
    elif kind == 'u8': vals = [random.randint(0,255) for _ in range(n)]; ctor = 'array(%s, dtype=uint8)'
    else: vals = [random.choice(['True','False']) for _ in range(n)]; ctor = 'array(%s)'
    src = '[' + ', '.join(str(v) for v in vals) + ']'
    if random.random() < 0.3 and n > 2:
        ks = sorted(set(random.randint(-n, n-1) for _ in range(random.randint(2,4))))
        kth = '[' + ', '.join(map(str, ks)) + ']'
    else:
        kth = str(random.choice([k for k in [0, 1, 2, 3, n//2, n-1, -1, n-2, n-3, 4, 5] if -n <= k < n]))
    lines.append('a = ' + ctor % src)
    lines.append('print(argpartition(a, %s))' % kth)
    lines.append('print(partition(a, %s))' % kth)
print('\n'.join(lines))
