# Random scalar printing cases (Python floats, NumPy scalars of every dtype in print, repr,
# lists and tuples): /usr/bin/python3 tests/gen/printing_scalars_fuzz.py SEED > NAME.tsr.
import random, sys, struct
R=random.Random(int(sys.argv[1]))
out=[]
for i in range(300):
    e=R.choice([0,1,2,-1,-3,-4,-5,5,8,15,16,17,20,-20,38,-38,-45,300,-310])
    m=R.uniform(-10,10)
    if R.random()<0.3: m=round(m,R.randint(0,3))
    v=m*10.0**e
    t=R.choice(['float64','float32','py','int','bool'])
    if t=='py': out.append('print(%r, repr(%r))'%(v,v))
    elif t=='int':
        k=R.randint(-2**40,2**40); d=R.choice(['int8','int16','int32','int64','uint8','uint16','uint32'])
        out.append('x = array([%d]).astype(%s); print(x[0], repr(x[0]), x.sum(), [x[0]], (x[0],))'%(k,d))
    elif t=='bool':
        out.append('print(array([True, False])[%d], repr(array([True])[0]), array([True, False]).all())'%R.randint(0,1))
    else:
        if t=='float32' and abs(v)>3e38: v=1.5
        out.append('x = array([%r]).astype(%s); print(x[0], repr(x[0]), x.sum(), [x[0]], (x[0], 1.5), str(x[0]))'%(v,t))
print('\n'.join(out))
