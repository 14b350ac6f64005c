# Random printing cases (arrays of every dtype, rank, magnitude, with random print options) for
# golden tests: /usr/bin/python3 tests/gen/printing_fuzz.py SEED COUNT > tests/scripts/printing/NAME.tsr,
# then the .out from the oracle.  Written for the printing issue; every case printed by str and repr.
import random, sys
seed=int(sys.argv[1]); n=int(sys.argv[2])
R=random.Random(seed)
def fval(kind):
    r=R.random()
    if r<0.05: return R.choice(['nan','inf','-inf','-0.0','0.0'])
    if kind=='int': return repr(R.randint(-10**R.randint(0,12), 10**R.randint(0,12)))
    e=R.choice([0,0,0,1,2,3,-1,-2,-3,-5,-8,5,8,10,16,17,20,-20,300,-300])
    m=R.uniform(-10,10)
    if R.random()<0.3: m=round(m, R.randint(0,4))
    return repr(m*10.0**e)
def arr():
    dt=R.choice(['float64','float64','float32','int64','int32','int8','uint8','uint16','bool','int16','uint64'])
    nd=R.choice([0,1,1,1,2,2,3])
    shape=[R.choice([0,1,2,3,4,5,7,10,30]) if R.random()<0.9 else R.randint(1,40) for _ in range(nd)]
    size=1
    for s in shape: size*=s
    if size>2000: shape=[min(s,8) for s in shape]; size=1
    size=1
    for s in shape: size*=s
    if dt=='bool':
        vals=[R.choice(['True','False']) for _ in range(size)]
    elif dt.startswith('float'):
        style=R.random()
        if style<0.3:
            vals=[repr(round(R.uniform(-100,100),R.randint(0,3))) for _ in range(size)]
        elif style<0.5:
            vals=[repr(float(R.randint(-1000,1000))) for _ in range(size)]
        else:
            k=R.choice(['f']*5)
            vals=[fval(k) for _ in range(size)]
    else:
        lo,hi={'int8':(-128,127),'uint8':(0,255),'int16':(-32768,32767),'uint16':(0,65535),'int32':(-2**31,2**31-1),'int64':(-2**63,2**63-1),'uint64':(0,2**63-1)}[dt]
        mag=R.choice([10,1000,10**6,hi])
        vals=[repr(R.randint(max(lo,-mag),min(hi,mag))) for _ in range(size)]
    vals=[v if v not in ('nan','inf','-inf') else v for v in vals]
    flat='['+', '.join(vals)+']'
    if nd==0: return 'array(%s, dtype=%s)'%(vals[0],dt)
    return 'array(%s, dtype=%s).reshape(%s)'%(flat,dt,tuple(shape))
lines=[]
for i in range(n):
    if R.random()<0.3:
        opts=[]
        if R.random()<0.5: opts.append('precision=%d'%R.randint(0,12))
        if R.random()<0.3: opts.append('suppress=%s'%R.choice(['True','False']))
        if R.random()<0.3: opts.append("sign='%s'"%R.choice(['-','+',' ']))
        if R.random()<0.3: opts.append("floatmode='%s'"%R.choice(['fixed','unique','maxprec','maxprec_equal']))
        if R.random()<0.3: opts.append('linewidth=%d'%R.randint(10,120))
        if R.random()<0.2: opts.append('threshold=%d'%R.randint(0,100))
        if R.random()<0.2: opts.append('edgeitems=%d'%R.randint(0,5))
        lines.append('set_printoptions(%s)'%', '.join(opts))
    a=arr()
    lines.append('x = '+a)
    lines.append('print(x)')
    lines.append('print(repr(x))')
    if R.random()<0.3: lines.append('print(x.sum(), repr(x.max()) if x.size else 0)')
    if R.random()<0.2: lines.append("set_printoptions(precision=8, threshold=1000, edgeitems=3, linewidth=75, suppress=False, sign='-', floatmode='maxprec')")
print('\n'.join(lines).replace("'nan'","nan"))
